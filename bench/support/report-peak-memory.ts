/**
 * Preloaded with `node --import` into a measured child process: at exit, writes the process's peak
 * resident set size (kB, from getrusage) to the file named by FITCONFORM_BENCH_PEAK_FILE.
 */
import { writeFileSync } from 'node:fs'

const file = process.env['FITCONFORM_BENCH_PEAK_FILE']
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)))
