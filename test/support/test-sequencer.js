// Runs the longest test files first, so the last minutes of a run are not one long file on one
// worker while the others idle. Jest's own sequencer knows durations only from its cache, which a
// fresh clone (CI) does not have: it then orders by file size, and the longest files here (the
// simulation, chaos, worker kills) are among the smallest. test-costs.json holds each file's
// seconds from a full run (`node test/support/record-test-costs.js <jest --json output>`); the
// cache, when present, wins. Files in neither run first, by size, as Jest does.
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const root = join(__dirname, '../..');
const costs = JSON.parse(readFileSync(join(__dirname, 'test-costs.json'), 'utf8'));

class CostFirstSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const seconds = costs[relative(root, test.path)];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = CostFirstSequencer;
