import { crmTaskQueue } from '../../contracts/task-queues';
import { CRM_REQUESTS_PER_ACTIVITY, crmActivitiesPerSecond } from '../../runtime/vendor-limits';
import { maxInWindow } from '../support/sliding-window';

describe('vendor limits as task-queue rates', () => {
  it('divides the vendor requests per second by the requests one activity sends', () => {
    const hubspot = {
      type: 'hubspot',
      accessToken: 't',
      basePath: 'https://api.hubapi.com',
      requestsPer10Seconds: 90,
      searchRequestsPerSecond: 4,
      taskPriority: 'HIGH',
    } as const;
    expect(crmActivitiesPerSecond(hubspot)).toBeCloseTo(9 / CRM_REQUESTS_PER_ACTIVITY);
    expect(crmActivitiesPerSecond(hubspot, 1)).toBe(9);
    const salesforce = {
      type: 'salesforce',
      instanceUrl: 'https://x.my.salesforce.com',
      accessToken: 't',
      apiVersion: '62.0',
      requestsPerSecond: 6,
      taskPriority: 'High',
    } as const;
    expect(crmActivitiesPerSecond(salesforce, 2)).toBe(3);
    expect(crmActivitiesPerSecond({ type: 'builtin' })).toBeUndefined();
  });

  it('names the CRM queue after the workflows queue', () => {
    expect(crmTaskQueue('callsync')).toBe('callsync-crm');
  });

  it('counts the most events in any sliding window', () => {
    // [100, 10_100) holds 100, 9_999, 10_000 and 10_001.
    expect(maxInWindow([0, 100, 9_999, 10_000, 10_001, 25_000], 10_000)).toBe(4);
    expect(maxInWindow([], 10_000)).toBe(0);
  });
});
