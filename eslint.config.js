// Lint, and the import rule between the parts of the house (docs/ARCHITECTURE.md): main, service,
// preload and renderer may import common; main and service may also import node (Node-only code
// they share); none imports another (the renderer may import types from preload); common and
// renderer never touch node:* or electron.
import { builtinModules } from 'node:module';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Every built-in Node has, bare or with node:, and their subpaths (fs/promises): a hand-picked
// list let `events` or `buffer` slip through.
const nodeBuiltins = ['node:*', ...builtinModules.filter((m) => !m.startsWith('_')).flatMap((m) => [m, `${m}/*`])];
const noNodeOrElectron = {
  patterns: [{ group: nodeBuiltins, message: 'common/ and renderer/ are environment-free: no Node built-ins.' }],
  paths: [{ name: 'electron', message: 'Only main/ and preload/ may import electron.' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', '.tsbuild/**', 'node_modules/**', 'bench/out/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['*/tsconfig.json'], noWarnOnMultipleProjects: true })],
      // Without these no-cycle reads no .ts file it imports, and so finds no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // No import cycles, inside a part either: a cycle hides which module is the ground.
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './common', from: ['./main', './service', './preload', './renderer', './node'], message: 'common/ imports nothing but common/.' },
            { target: './node', from: ['./main', './service', './preload', './renderer'], message: 'node/ may import only common/.' },
            { target: './main', from: ['./service', './preload', './renderer'], message: 'main/ may import only common/ and node/.' },
            { target: './service', from: ['./main', './preload', './renderer'], message: 'service/ may import only common/ and node/.' },
            { target: './preload', from: ['./main', './service', './renderer', './node'], message: 'preload/ may import only common/.' },
            { target: './renderer', from: ['./main', './service', './node'], message: 'renderer/ may import only common/ (and types from preload/).' },
          ],
        },
      ],
    },
  },
  { files: ['common/**/*.ts'], rules: { 'no-restricted-imports': ['error', noNodeOrElectron] } },
  { files: ['renderer/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', noNodeOrElectron] } },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/preload/**'], allowTypeImports: true, message: 'renderer/ may import only types from preload/.' }] }] },
  },
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
);
