// Lint: typescript-eslint's recommended rules plus the folder boundaries of ../shared/STYLE.md §2.14,
// so the pipeline (load → plan → execute → report) stays visible in the imports.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] })

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', 'coverage/**'] },
  js.configs.recommended,
  { files: ['bin/**/*.js'], languageOptions: { globals: { console: 'readonly', process: 'readonly' } } },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  { files: ['src/model/**'], rules: restrict([{ group: ['../*', 'undici', 'yaml', 'ajv*', 'commander'], message: 'src/model imports nothing' }]) },
  { files: ['src/shared/**'], rules: restrict([{ group: ['../*', '!../model', '!../model/*', 'undici', 'yaml', 'ajv*', 'commander', 'http-proxy*'], message: 'src/shared (used by the runner and the proxy) imports only node built-ins and src/model' }]) },
  { files: ['src/plan/**'], rules: restrict([{ group: ['../execute/*', '../load/*', '../report/*', '../cli/*', 'undici', 'yaml'], message: 'src/plan is pure: model only' }]) },
  { files: ['src/load/**'], rules: restrict([{ group: ['../execute/*', '../report/*', '../cli/*', 'undici'], message: 'src/load reads files; it sends nothing' }]) },
  { files: ['src/matchers/**'], rules: restrict([{ group: ['../execute/*', '../load/*', '../report/*', '../cli/*', 'undici', 'yaml'], message: 'matchers are pure' }]) },
  { files: ['src/report/**'], rules: restrict([{ group: ['../execute/*', '../load/*', '../validation/*', '../cli/*', 'undici', 'yaml'], message: 'reporters see only src/model data' }]) },
  {
    files: ['src/execute/**'],
    ignores: ['src/execute/http-client.ts'],
    rules: restrict([{ group: ['undici'], message: 'only execute/http-client.ts imports undici' }, { group: ['../load/*', '../cli/*', 'yaml'], message: 'the executor gets loaded scenarios' }]),
  },
  { files: ['src/openapi/**'], rules: restrict([{ group: ['../execute/*', '../plan/*', '../report/*', '../cli/*', '../api/*', 'undici', 'commander'], message: 'src/openapi builds a document from data (model, validation); it runs nothing' }]) },
  { files: ['src/fuzz/**'], rules: restrict([{ group: ['../report/*', '../cli/*', 'undici', 'commander'], message: 'src/fuzz generates and runs scenarios; the CLI reports them' }]) },
  {
    files: ['reference-server/**'],
    rules: restrict([{ group: ['../src/*', '../../src/*', '../proxy/*', '../../proxy/*', 'undici', 'yaml', 'ajv*'], message: 'the reference server is an independent implementation: node built-ins only' }]),
  },
  {
    files: ['proxy/**'],
    ignores: ['proxy/forwarder.ts'],
    rules: restrict([{ group: ['undici', 'http-proxy', 'http-proxy-3'], message: 'only proxy/forwarder.ts knows the forwarding library' }]),
  },
)
