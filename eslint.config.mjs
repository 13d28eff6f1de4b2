// Lint rules: type-aware typescript-eslint, no floating promises anywhere, no Node built-ins in
// workflow code (workflows run in Temporal's deterministic sandbox), and imports that run one way:
// workflows and contracts take only types from the layers that do I/O, and nothing else loads
// workflow code.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// Import patterns (gitignore syntax, relative paths allowed) for top-level folders of this project.
const layerGroups = (folders) => folders.flatMap((f) => [`**/${f}`, `**/${f}/**`]);

// Workflows run in Temporal's deterministic sandbox: no Node built-ins, and from the layers that do
// I/O only types. Contracts are imported by workflows, so the same holds for them.
const noNodeBuiltins = nodeBuiltins.map((name) => ({
  name,
  message: 'Workflows run in a deterministic sandbox: do I/O in activities.',
}));
const onlyTypesFromIoLayers = {
  group: layerGroups(['activities', 'connectors', 'server', 'runtime', 'cli', 'local', 'config']),
  allowTypeImports: true,
  message:
    'Workflow code imports only types from here (import type): its code does I/O. Shared definitions go in contracts/.',
};

// Only the worker bundle loads workflow code (by path); callers start and signal workflows through
// their definitions in contracts/.
const noWorkflowCode = {
  group: layerGroups(['workflows']),
  allowTypeImports: true,
  message: 'Start and signal workflows through contracts/, not by importing workflow code.',
};

// The CRM connectors share the rate limiter and Retry-After parsing through lib/, not by reaching
// into the platform client's request core.
const noPlatformCore = {
  group: ['**/platform/core', '**/platform/core/**'],
  message: "The platform client's request core is its own; shared HTTP helpers live in lib/.",
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.tools/**',
      '.data/**',
      '.scratch/**',
      'dist/**',
      'coverage/**',
      '*.config.{js,mjs}',
      // Jest's plumbing in CommonJS, loaded as it is before any transform (like jest.config.js).
      'test/support/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        // bin/healthcheck.mjs: plain JavaScript the image runs without a build (no tsconfig of its own).
        projectService: { allowDefaultProject: ['bin/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // ESLint keeps only the last options of a rule per file, so each block below repeats the
  // restrictions of the blocks before it that also match its files.
  {
    files: ['**/*.ts'],
    ignores: ['workflows/**', 'test/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noWorkflowCode] }] },
  },
  {
    files: ['connectors/**/*.ts'],
    ignores: ['connectors/platform/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noWorkflowCode, noPlatformCore] }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: noNodeBuiltins, patterns: [onlyTypesFromIoLayers] },
      ],
    },
  },
  {
    files: ['contracts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: noNodeBuiltins, patterns: [onlyTypesFromIoLayers, noWorkflowCode] },
      ],
    },
  },
);
