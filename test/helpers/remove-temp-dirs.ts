// Vitest setup file: after each test file (and after that file's own afterAll hooks, which run
// first), remove the folders it made with makeTempDir.
import { afterAll } from 'vitest'
import { removeTempDirs } from './temp-dir.js'

afterAll(removeTempDirs)
