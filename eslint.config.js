// Lint: typescript-eslint's recommended rules plus the folder boundaries of ../shared/STYLE.md §2.14,
// so the pipeline (load → plan → execute → report) stays visible in the imports.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

// A relative import reaches a folder of src/ through any number of `../`, depending on how deep the importing
// file sits (src/report/html/page-data.ts writes ../../execute/…): match the folder at every depth.
const reachesInto = (folders, message) => ({ regex: String.raw`^(\.\./)+(${folders.join('|')})(/|$)`, message })
const packages = (names, message) => ({ group: names, message })

// Who may start the reference server: `fitconform serve`, the embedded target of run/fuzz/run(), and the self-test.
// Everyone else under src/ (and proxy/) tests a server it is given.
const REFERENCE_SERVER_USERS = ['src/cli/serve-command.ts', 'src/api/embedded-target.ts', 'src/selftest/**']
const noReferenceServer = {
  regex: String.raw`^(\.\./)+reference-server(/|$)`,
  message: 'only cli/serve-command.ts, api/embedded-target.ts and selftest/ start the reference server',
}

/** Per folder of src/: what its files may not import (STYLE §2.14), the reference server always included. */
const SRC_BOUNDARIES = {
  // Any parent import at all: model is the bottom of the pipeline.
  model: [
    { regex: String.raw`^\.\./`, message: 'src/model imports nothing' },
    packages(['undici', 'yaml', 'ajv*', 'commander'], 'src/model imports nothing'),
  ],
  shared: [
    {
      regex: String.raw`^(\.\./)+(?!model/)[^./]`,
      message: 'src/shared (used by the runner and the proxy) imports only node built-ins and src/model',
    },
    packages(
      ['undici', 'yaml', 'ajv*', 'commander', 'http-proxy*'],
      'src/shared (used by the runner and the proxy) imports only node built-ins and src/model',
    ),
  ],
  plan: [
    reachesInto(['execute', 'load', 'report', 'cli'], 'src/plan is pure: model only'),
    packages(['undici', 'yaml'], 'src/plan is pure: model only'),
  ],
  load: [
    reachesInto(['execute', 'report', 'cli'], 'src/load reads files; it sends nothing'),
    packages(['undici'], 'src/load reads files; it sends nothing'),
  ],
  matchers: [
    reachesInto(['execute', 'load', 'report', 'cli'], 'matchers are pure'),
    packages(['undici', 'yaml'], 'matchers are pure'),
  ],
  report: [
    reachesInto(['execute', 'load', 'validation', 'cli'], 'reporters see only src/model data'),
    packages(['undici', 'yaml'], 'reporters see only src/model data'),
  ],
  execute: [
    reachesInto(['load', 'cli'], 'the executor gets loaded scenarios'),
    reachesInto(
      ['report'],
      'the executor hands reporters src/model data (model/reporter.ts); it imports nothing from report/',
    ),
    packages(['yaml'], 'the executor gets loaded scenarios'),
  ],
  openapi: [
    reachesInto(
      ['execute', 'plan', 'report', 'cli', 'api'],
      'src/openapi builds a document from data (model, validation); it runs nothing',
    ),
    packages(['undici', 'commander'], 'src/openapi builds a document from data (model, validation); it runs nothing'),
  ],
  // The API's own knowledge: data, and small functions over it, that the engine's stages read. It runs nothing.
  spec: [
    reachesInto(
      ['execute', 'plan', 'report', 'cli', 'api', 'selftest', 'openapi'],
      'src/spec holds what is specific to the Fitness Data Service; the engine uses it, not the other way round',
    ),
    packages(['undici', 'commander'], 'src/spec holds what is specific to the Fitness Data Service; it sends nothing'),
  ],
  fuzz: [
    reachesInto(['report', 'cli'], 'src/fuzz generates and runs scenarios; the CLI reports them'),
    packages(['undici', 'commander'], 'src/fuzz generates and runs scenarios; the CLI reports them'),
  ],
  diff: [
    reachesInto(['cli'], 'src/diff sends through execute/ (the run path) and hands the CLI a result'),
    packages(['undici', 'commander'], 'src/diff sends through execute/ (the run path) and hands the CLI a result'),
  ],
}

// The proxy reads recordings with the runner's model, validation, loader (round trips) and shared helpers; it runs
// and reports nothing of the runner's, but prints its errors through the runner's one Diagnostic formatter.
const PROXY_BOUNDARIES = [
  reachesInto(
    [
      String.raw`src/(execute|report(?!/text/format-diagnostic\.js$)|cli|api|plan|fuzz|selftest|matchers|expression|openapi|known-failures|session)`,
    ],
    'proxy/ uses src/model, src/load, src/validation, src/spec, src/shared and the Diagnostic formatter only',
  ),
  reachesInto(
    ['reference-server'],
    'proxy/ records and checks a server it is given; it does not start the reference server',
  ),
]

const FORWARDING_LIBRARY = packages(
  ['undici', 'http-proxy', 'http-proxy-3'],
  'only proxy/forward/forwarder.ts knows the forwarding library',
)
/** Per room of proxy/: which sibling rooms its files may not import. */
const PROXY_ROOMS = {
  forward: [
    reachesInto(
      ['reading', 'mock', 'analyze', 'scaffold', 'commands'],
      'proxy/forward passes traffic on and hands it to recording/; it reads no recording',
    ),
  ],
  recording: [
    reachesInto(
      ['mock', 'scaffold', 'commands'],
      'proxy/recording writes exchanges down; it serves and scaffolds nothing',
    ),
  ],
  reading: [
    reachesInto(
      ['forward', 'mock', 'scaffold', 'commands'],
      'proxy/reading reads a recording; it forwards and serves nothing',
    ),
  ],
  analyze: [
    reachesInto(
      ['forward', 'recording', 'reading', 'mock', 'scaffold', 'commands'],
      'proxy/analyze judges exchange views it is given; it forwards, records and reads nothing',
    ),
  ],
  scaffold: [reachesInto(['forward', 'mock', 'commands'], 'proxy/scaffold writes scenarios from a recording it reads')],
  mock: [reachesInto(['analyze', 'scaffold'], 'proxy/mock answers from a recording; it judges and scaffolds nothing')],
}

const UNDICI_IN_CLIENT_ONLY = packages(['undici'], 'only execute/http/http-client.ts imports undici')
const HTTP_ROOM = reachesInto(
  ['step', 'safety', 'finalize'],
  'execute/http sends requests; it knows no step, cleanup or finalizing',
)
const FINALIZE_ROOM = {
  regex: String.raw`^\.\./[^.]`,
  message:
    'execute/finalize is a stage of its own: it shapes the run result from src/model data, nothing else of execute/',
}

const srcBoundaries = [
  // Folders without a row of their own (api, cli, expression, known-failures, validation, …) still may not start the reference server.
  { files: ['src/**'], ignores: REFERENCE_SERVER_USERS, rules: restrict([noReferenceServer]) },
  // A later entry for the same file replaces the rule's options: each row repeats the reference-server pattern.
  ...Object.entries(SRC_BOUNDARIES).map(([folder, patterns]) => ({
    files: [`src/${folder}/**`],
    rules: restrict([...patterns, noReferenceServer]),
  })),
  {
    files: ['src/execute/**'],
    ignores: ['src/execute/http/http-client.ts'],
    rules: restrict([...SRC_BOUNDARIES.execute, noReferenceServer, UNDICI_IN_CLIENT_ONLY]),
  },
  // The rooms of execute/: http/ sends (below steps and cleanup), finalize/ is a stage of its own that shapes
  // the run's result from src/model data; step/ and safety/ use http/.
  {
    files: ['src/execute/http/**'],
    ignores: ['src/execute/http/http-client.ts'],
    rules: restrict([...SRC_BOUNDARIES.execute, noReferenceServer, UNDICI_IN_CLIENT_ONLY, HTTP_ROOM]),
  },
  {
    files: ['src/execute/http/http-client.ts'],
    rules: restrict([...SRC_BOUNDARIES.execute, noReferenceServer, HTTP_ROOM]),
  },
  {
    files: ['src/execute/finalize/**'],
    rules: restrict([...SRC_BOUNDARIES.execute, noReferenceServer, UNDICI_IN_CLIENT_ONLY, FINALIZE_ROOM]),
  },
]

// The reference server is an independent implementation: it shares no code with the runner or the proxy.
const REFERENCE_SERVER_BOUNDARIES = [
  reachesInto(['src', 'proxy'], 'the reference server is an independent implementation: node built-ins only'),
  packages(['undici', 'yaml', 'ajv*'], 'the reference server is an independent implementation: node built-ins only'),
]
const REFERENCE_SERVER_DATA_ROOM = reachesInto(
  ['http', 'handlers', 'faults'],
  'reference-server/store and data/ hold plain data: they know no HTTP, handler or fault',
)

const noCliImport = reachesInto(['cli'], 'src/api is the library the CLI calls; it never imports src/cli')

function restrict(patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] }
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', 'coverage/**'] },
  js.configs.recommended,
  // Node scripts outside the TypeScript project: the globals they use. bin/ is CommonJS (bin/package.json).
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { console: 'readonly', process: 'readonly' } } },
  ...tseslint.configs.recommended,
  // Prettier wraps code at 120 (.prettierrc.json; `prettier --check` is part of npm run lint); what it cannot
  // wrap, a comment, may not pass 140 either. A long text or pattern stays whole, so it can be searched for.
  {
    rules: {
      'max-len': [
        'error',
        { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        console: 'readonly',
        process: 'readonly',
        require: 'readonly',
        module: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  ...srcBoundaries,
  // no-restricted-imports does not look at import(): the embedded target loads the server lazily that way.
  {
    files: ['src/**', 'proxy/**'],
    ignores: REFERENCE_SERVER_USERS,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: String.raw`ImportExpression[source.value=/(^|\/)reference-server(\/|$)/]`,
          message: noReferenceServer.message,
        },
      ],
    },
  },
  { files: ['reference-server/**'], rules: restrict(REFERENCE_SERVER_BOUNDARIES) },
  // The server's rooms: http/ parses and answers, handlers/ serve the §4 endpoints, faults/ hold the mutants the
  // server switches on; store/ and data/ are what it keeps and starts from, plain data that knows none of them.
  {
    files: ['reference-server/store/**', 'reference-server/data/**'],
    rules: restrict([...REFERENCE_SERVER_BOUNDARIES, REFERENCE_SERVER_DATA_ROOM]),
  },
  {
    files: ['proxy/**'],
    rules: restrict([...PROXY_BOUNDARIES, FORWARDING_LIBRARY]),
  },
  { files: ['proxy/forward/forwarder.ts'], rules: restrict(PROXY_BOUNDARIES) },
  // The proxy's rooms: forward/ passes traffic on, recording/ writes it down, reading/ and the tools beside it
  // (analyze/, scaffold/) read what was written, mock/ answers from it; commands/ wires them to the CLI.
  ...Object.entries(PROXY_ROOMS).map(([room, rows]) => ({
    files: [`proxy/${room}/**`],
    rules: restrict([...PROXY_BOUNDARIES, ...rows, ...(room === 'forward' ? [] : [FORWARDING_LIBRARY])]),
  })),
  { files: ['proxy/forward/forwarder.ts'], rules: restrict([...PROXY_BOUNDARIES, ...PROXY_ROOMS.forward]) },
  // The CLI is a thin layer over the library (flags → run() options → exit code): src/api never imports src/cli.
  { files: ['src/api/**'], ignores: REFERENCE_SERVER_USERS, rules: restrict([noCliImport, noReferenceServer]) },
  { files: ['src/api/embedded-target.ts'], rules: restrict([noCliImport]) },
  // The CLI's options room turns flags and config files into run() options; the commands use it, never the reverse.
  {
    files: ['src/cli/options/**'],
    rules: restrict([
      {
        regex: String.raw`^\.\./[^./]`,
        message: 'src/cli/options turns flags and config files into run options; it imports no command',
      },
      noReferenceServer,
    ]),
  },
  // The run session (client, run values, preflight, ledger, cleanup) is shared by run, fuzz and the self-test below the CLI.
  {
    files: ['src/session/**'],
    rules: restrict([
      reachesInto(
        ['load', 'report', 'cli', 'api'],
        'src/session opens a run for run, fuzz and the self-test; it loads and reports nothing',
      ),
      noReferenceServer,
    ]),
  },
)
