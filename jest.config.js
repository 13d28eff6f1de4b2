/**
 * Jest: TypeScript through swc, in two projects. `unit` is pure code and needs no service;
 * `services` (contract, integration, end-to-end) shares one PostgreSQL and the Temporal CLI per run
 * (test/support/global-setup.ts). ES-module-only dependencies (kysely, commander) load through
 * Node's require(esm), which Jest supports on Node 24.9+ with --experimental-vm-modules (the npm
 * scripts pass it).
 */
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] };
const shared = { testEnvironment: 'node', transform };

/** @type {import('jest').Config} */
module.exports = {
  // Three workers on the two-core CI machine: most test files spend their time waiting on timers,
  // Temporal and the services they start, so a third fills the gaps (the whole suite: 799 s with two
  // workers, 596 s with three, measured back to back on this machine). Four kept the cores as busy
  // and made timing-sensitive tests fail.
  maxWorkers: 3,
  // A global option: inside `projects` Jest ignores it and every hook falls back to 5 s, which a busy
  // machine overruns while a beforeAll migrates a fresh database.
  testTimeout: 60_000,
  // Longest files first, from committed costs when Jest has no cache (a fresh clone).
  testSequencer: '<rootDir>/test/support/test-sequencer.js',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'services',
      testMatch: ['<rootDir>/test/{contract,conformance,integration,e2e}/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
