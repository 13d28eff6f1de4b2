// Writes test-costs.json (seconds per test file, for test-sequencer.js) from the output of
// `npm run jest -- --json --outputFile=<file>`: node test/support/record-test-costs.js <file>.
const { readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '../..');
const results = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const costs = Object.fromEntries(
  results.testResults
    .map((r) => [relative(root, r.name), Math.max(1, Math.round((r.endTime - r.startTime) / 1000))])
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
);
writeFileSync(join(__dirname, 'test-costs.json'), `${JSON.stringify(costs, null, 2)}\n`);
