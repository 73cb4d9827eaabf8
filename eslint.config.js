// Lint config. The import rules below are the process boundaries of ../shared/DESIGN.md:
// code is placed by where it runs, and an import across the line fails lint.
import tseslint from 'typescript-eslint';
import blotter from './scripts/eslint/noGlobalCss.js';
import folderCycles from './scripts/eslint/folderCycles.js';

const NODE_BUILTINS =
  '^(node:.*|fs|fs/promises|path|os|child_process|worker_threads|http|https|net|crypto|url|stream|events|util|zlib)$';

/** @param {string} regex @param {string} message */
const ban = (regex, message) => ({ regex, message });

const noNode = ban(NODE_BUILTINS, 'Node built-ins are not available here.');
const noNative = ban('^(better-sqlite3|keytar|geo-tz)$', 'Native/engine modules belong to src-main/engine.');
const noElectron = ban('^electron(/.*)?$', 'Only src-main/electron and src-preload may import electron.');
const noMain = ban('(^|/)src-main(/|$)', 'This layer may not import src-main.');
const noRenderer = ban('(^|/)src-renderer(/|$)', 'Only the renderer imports src-renderer.');
const noPreload = ban('(^|/)src-preload(/|$)', 'Nothing imports the preload.');
const noSim = ban('(^|/)src-sim(/|$)', 'Only tests, benchmarks and demo mode use the simulator.');
const noHostsFromEngine = ban('^\\.\\./(\\.\\./)*(electron|web|cli)(/|$)', 'The engine is host-agnostic.');
const noHostsFromDemo = ban('^\\.\\./(electron|web|cli)(/|$)', 'Demo mode is host-agnostic.');
// Hosts reach the engine through one door, src-main/engine/index.ts (EngineHandle + contract calls).
const noEngineInternals = ban(
  '^\\.\\./(\\.\\./)*engine(/(?!index$)|$)',
  'Hosts import the engine only from src-main/engine/index.ts and call it through the contract.',
);

const restrict = (files, patterns, extra = {}) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns }], ...extra },
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'release/**',
      'e2e/artifacts/**',
      'test-results/**',
      'bench/results/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  restrict(
    ['src-shared/**'],
    [
      noNode,
      noNative,
      noElectron,
      noMain,
      noRenderer,
      noPreload,
      noSim,
      ban('^react', 'src-shared is UI-free.'),
    ],
  ),
  restrict(['src-renderer/**'], [noNode, noNative, noElectron, noMain, noPreload, noSim]),
  // Styles: features use CSS modules; plain global sheets live only in src-renderer/styles/ (and the
  // third-party sheets listed here). See scripts/eslint/noGlobalCss.js.
  {
    files: ['src-renderer/**'],
    plugins: { blotter },
    rules: {
      'blotter/no-global-css': [
        'error',
        {
          stylesDir: 'src-renderer/styles',
          allowPackages: [
            'leaflet/dist/leaflet.css',
            '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css',
          ],
        },
      ],
    },
  },
  // The engine's folders form a tree: no circle among their runtime imports (type-only imports,
  // tests and the composition root may cross). See scripts/eslint/folderCycles.js.
  {
    files: ['src-main/engine/**/*.ts'],
    plugins: { folders: folderCycles },
    rules: { 'folders/no-folder-cycle': ['error', { root: 'src-main/engine' }] },
  },
  restrict(['src-preload/**'], [noNode, noNative, noMain, noRenderer, noSim]),
  restrict(['src-main/engine/**'], [noElectron, noRenderer, noPreload, noSim, noHostsFromEngine]),
  // The services take the parts of the core they use from core.ts; context.ts names the services, so
  // a service importing it closes a circle. Only the handlers (and tests) get the whole context.
  {
    ...restrict(
      ['src-main/engine/*/**'],
      [
        noElectron,
        noRenderer,
        noPreload,
        noSim,
        noHostsFromEngine,
        ban(
          '^(\\.\\./)+context$',
          'A service imports the parts of the core it uses from ../core.ts, not ../context.',
        ),
      ],
    ),
    ignores: ['src-main/engine/handlers/**'],
  },
  restrict(
    ['src-main/web/**', 'src-main/cli/**'],
    [noElectron, noRenderer, noPreload, noSim, noEngineInternals],
  ),
  restrict(['src-main/electron/**'], [noRenderer, noPreload, noSim, noEngineInternals]),
  // Demo mode starts the simulator in a host's process: src-shared, src-sim and the engine, no host.
  restrict(['src-main/demo/**'], [noElectron, noRenderer, noPreload, noHostsFromDemo, noEngineInternals]),
  restrict(['src-sim/**'], [noElectron, noNative, noMain, noRenderer, noPreload]),
  // Tests may reach the simulator (the other side of the wire) and engine internals (fixtures, a
  // database to inspect) but still respect host boundaries.
  restrict(['src-main/engine/**/*.test.ts'], [noElectron, noRenderer, noPreload, noHostsFromEngine]),
  restrict(['src-main/web/**/*.test.ts', 'src-main/cli/**/*.test.ts'], [noElectron, noRenderer, noPreload]),
  restrict(['src-main/electron/**/*.test.ts'], [noRenderer, noPreload]),
  restrict(['src-main/demo/**/*.test.ts'], [noElectron, noRenderer, noPreload, noHostsFromDemo]),
);
