import { crmTaskQueue } from '../../contracts/task-queues';
import { maxInWindow } from '../support/sliding-window';

describe('the CRM task queue', () => {
  it('names the CRM queue after the workflows queue', () => {
    expect(crmTaskQueue('callsync')).toBe('callsync-crm');
  });

  it('counts the most events in any sliding window', () => {
    // [100, 10_100) holds 100, 9_999, 10_000 and 10_001.
    expect(maxInWindow([0, 100, 9_999, 10_000, 10_001, 25_000], 10_000)).toBe(4);
    expect(maxInWindow([], 10_000)).toBe(0);
  });
});
