/** Jest: TypeScript through swc; one global PostgreSQL/Temporal bootstrap per run (test/global-setup.ts). */
const swc = ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }];
// kysely ships ES modules only; Node 20.19+ can require() them, but jest's own loader cannot, so swc
// turns them into CommonJS for the test run.
const transform = { '^.+\\.ts$': swc, '/node_modules/kysely/.+\\.js$': swc };

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns: ['/node_modules/(?!kysely/)'],
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};
