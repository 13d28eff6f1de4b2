// Lint rules: type-aware typescript-eslint, no floating promises anywhere, no Node built-ins in
// workflow code (workflows run in Temporal's deterministic sandbox), and imports that run one way:
// the top-level folders are layers, and code imports values only from its own layer or a lower one
// (types from anywhere); workflows and contracts take only types from the layers that do I/O, and
// nothing else loads workflow code.
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

// The layers, lowest first. A file imports values only from its own layer or a lower one; `import
// type` may reach any layer. The emulator (a stand-in platform that local and cli start), bench/ and
// test/ are outside the layers.
const LAYERS = [
  'contracts',
  'lib',
  'config',
  'connectors',
  'sync',
  'reports',
  'activities',
  'workflows',
  'runtime',
  'server',
  'local',
  'cli',
];

// The config layer also holds the schema-only files that config/schema.ts assembles, kept beside the
// code they configure: connectors/*/config.ts, connectors/*/*-config.ts, reports/config.ts and the
// report catalogue. They import only zod and lower layers, and other such files.
const CONFIG_LAYER_FILES = [
  'connectors/*/config.ts',
  'connectors/*/*-config.ts',
  'reports/config.ts',
  'reports/catalogue.ts',
];
const CONFIG_LAYER_IMPORT = String.raw`(?:connectors/[^/]+/(?:[^/]+-)?config|reports/(?:config|catalogue))$`;

// The pattern (none for the top layer) against value imports of the layers above `layer`, and of
// the emulator below local: a regular expression over relative specifiers, whose first folder after
// the `../` steps is the top-level one. The config layer's files in connectors/ and reports/ stay
// importable from the config layer up.
function aboveLayer(layer) {
  const index = LAYERS.indexOf(layer);
  const above = LAYERS.slice(index + 1);
  if (index < LAYERS.indexOf('local')) above.push('emulator');
  if (above.length === 0) return [];
  const configFilesOk =
    index >= LAYERS.indexOf('config') ? String.raw`(?!(?:\.\./)+${CONFIG_LAYER_IMPORT})` : '';
  return [
    {
      regex: String.raw`^${configFilesOk}(?:\.\./)+(?:${above.join('|')})(?:/|$)`,
      allowTypeImports: true,
      message: `Layers import values only from their own layer or a lower one (eslint.config.mjs: ${LAYERS.join(' < ')}); this one is above ${layer}. Take only types (import type), or move what both need down.`,
    },
  ];
}

// The config layer's files in connectors/ and reports/ import, from their own folders, only other
// such files (a schema, not the code it configures).
const onlyConfigSiblings = {
  regex: String.raw`^(?:\./|\.\./(?!\.\./))(?!(?:[^/]+/)?(?:[^/]+-)?config$|catalogue$)`,
  allowTypeImports: true,
  message:
    'A config-layer schema file imports only other schema files (config.ts, *-config.ts) and lower layers, not the code it configures.',
};

// The emulator takes values from lib and the platform's schemas only (it stands in for the platform).
const emulatorImports = {
  regex: String.raw`^(?!(?:\.\./)+(?:lib|connectors/platform/schemas)(?:/|$))(?:\.\./)+(?:${LAYERS.join('|')})(?:/|$)`,
  allowTypeImports: true,
  message: 'The emulator takes values only from lib/ and connectors/platform/schemas (types from anywhere).',
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
  // restrictions of the blocks before it that also match its files (later blocks win).
  {
    files: ['**/*.ts'],
    ignores: ['workflows/**', 'test/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noWorkflowCode] }] },
  },
  ...LAYERS.filter((layer) => !['workflows', 'contracts'].includes(layer)).map((layer) => ({
    files: [`${layer}/**/*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [noWorkflowCode, ...aboveLayer(layer)] },
      ],
    },
  })),
  {
    files: ['connectors/**/*.ts'],
    ignores: ['connectors/platform/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [noWorkflowCode, noPlatformCore, ...aboveLayer('connectors')] },
      ],
    },
  },
  {
    files: CONFIG_LAYER_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [noWorkflowCode, ...aboveLayer('config'), onlyConfigSiblings] },
      ],
    },
  },
  {
    files: ['emulator/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noWorkflowCode, emulatorImports] }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: noNodeBuiltins, patterns: [onlyTypesFromIoLayers, ...aboveLayer('workflows')] },
      ],
    },
  },
  {
    files: ['contracts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: noNodeBuiltins,
          patterns: [onlyTypesFromIoLayers, noWorkflowCode, ...aboveLayer('contracts')],
        },
      ],
    },
  },
);
