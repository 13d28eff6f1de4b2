/** Jest: TypeScript through swc; one global PostgreSQL/Temporal bootstrap per run (test/global-setup.ts). */
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] };

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};
