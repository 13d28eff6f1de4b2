// HubSpot's search sees a write only after a few moments, not necessarily in write order
// (https://developers.hubspot.com/docs/api/crm/search). Against the test server's lagging search:
// looking for a call or task an earlier attempt created a moment ago (its answer lost) finds it
// instead of letting callsync create a duplicate, and the outcomes read re-reads a margin behind its
// cursor, so an outcome indexed after a later one is not lost.
import type { CrmOutcome } from '../../connectors/crm/outcomes';
import { HubSpotConnector } from '../../connectors/hubspot';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { hubspotConnectorOn } from '../support/hubspot-connector';
import { callbackTask, callLog } from './crm-fixtures';

const LAG_MS = 1_000;
const NO_ANSWER = '73a0d17f-1163-4015-bdd5-ec830791da20';
const WRONG_NUMBER = '17b47fee-58de-441e-a44c-c6300d46f273';

let fake: FakeHubSpot;
let hubspot: HubSpotConnector;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const searches = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/search'));

beforeAll(async () => {
  fake = await startFakeHubSpot({ searchLagMs: LAG_MS });
  hubspot = hubspotConnectorOn(fake, { searchLagSeconds: 2 });
  await hubspot.prepare();
});
afterAll(() => fake.close());
beforeEach(() => fake.setSearchLag(LAG_MS));

describe('HubSpot search lag', () => {
  it('the test server’s search sees a write only after its lag; reads by id see it at once', async () => {
    const id = await hubspot.createCallLog(callLog());
    const body = {
      filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'EQ', value: id }] }],
    };
    const search = async () => {
      const res = await fetch(`${fake.url}/crm/v3/objects/calls/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return ((await res.json()) as { total: number }).total;
    };
    expect(await search()).toBe(0);
    expect(fake.objects('calls').some((o) => o.id === id)).toBe(true);
    await sleep(LAG_MS + 100);
    expect(await search()).toBe(1);
  });

  it('after a lost answer, the lookup finds the call or task created a moment ago, not nothing', async () => {
    const log = callLog();
    const task = callbackTask();
    const callId = await hubspot.createCallLog(log);
    const taskId = await hubspot.createTask(task);
    // At once, as a retry right after the lost answer would: the first search cannot see them yet.
    expect(await hubspot.findCallLog(log.key)).toBe(callId);
    expect(await hubspot.findTask(task.key)).toBe(taskId);
  });

  it('the batch lookup finds every call a lost batch create made, searching again over the lag', async () => {
    const logs = [callLog(), callLog(), callLog()];
    const created = await hubspot.batch.createCallLogs(logs);
    const before = searches().length;
    const found = await hubspot.batch.findCallLogs(logs.map((l) => l.key));
    expect(found).toEqual(new Map(logs.map((l) => [l.key, created.get(l.key)])));
    // No batch/read by a unique callsync_key (calls have none): one search the index had not caught
    // up with, one after the lag.
    expect(searches().length - before).toBe(2);
  });

  it('a key that was never created is missing after the second search, and only then', async () => {
    const before = searches().length;
    const started = Date.now();
    expect(await hubspot.findCallLog(`${callLog().key}-never`)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(searches().length - before).toBe(2);
  });

  it('outcomes: one indexed after a later one is read on the next pass, behind the cursor', async () => {
    fake.setSearchLag(0);
    const a = await hubspot.createCallLog(callLog());
    const b = await hubspot.createCallLog(callLog());
    const source = hubspot.outcomes();
    const read = async (since: string | null) => {
      const all: CrmOutcome[] = [];
      for await (const page of source.changedSince(since)) all.push(...page);
      return all;
    };
    let cursor = (await read(null)).reduce((m, o) => (o.modifiedAt > m ? o.modifiedAt : m), '');
    const patch = async (id: string, value: string) => {
      await sleep(5);
      const res = await fetch(`${fake.url}/crm/v3/objects/calls/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ properties: { hs_call_disposition: value } }),
      });
      expect(res.status).toBe(200);
    };
    // An agent sets A's outcome, then B's; B reaches search first.
    fake.setSearchLag(1_500);
    await patch(a, NO_ANSWER);
    fake.setSearchLag(0);
    await patch(b, WRONG_NUMBER);
    const first = await read(cursor);
    expect(first.find((o) => o.crmId === b)?.value).toBe(WRONG_NUMBER);
    expect(first.find((o) => o.crmId === a)?.value).not.toBe(NO_ANSWER);
    cursor = first.reduce((m, o) => (o.modifiedAt > m ? o.modifiedAt : m), cursor);
    expect(cursor).toBe(first.find((o) => o.crmId === b)!.modifiedAt);

    await sleep(1_600);
    const second = await read(cursor);
    expect(second.find((o) => o.crmId === a)?.value).toBe(NO_ANSWER);
  });
});
