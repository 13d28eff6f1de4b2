// Every endpoint of the spec's endpoint tables is reachable through a client method that sends the
// spec's method and path template (the lead's contract test checks the same against the emulator).
import { Readable } from 'node:stream';
import { BEYOND_SPEC_ENDPOINTS } from '../../connectors/platform';
import { SPEC_ENDPOINTS } from '../contract/spec-endpoints';
import { json, testClient } from './client-fakes';

const MODULES = [
  'auth',
  'calls',
  'storage',
  'customer',
  'history',
  'callMeBack',
  'settings',
  'reports',
] as const;

/** Calls every method under `node` with placeholder arguments and waits for its first request. */
async function callEverything(node: Record<string, unknown>, names: string[], at: string): Promise<void> {
  for (const [key, value] of Object.entries(node)) {
    const where = `${at}.${key}`;
    if (typeof value === 'function') {
      names.push(where);
      const result: unknown = (value as (...a: unknown[]) => unknown)(1, '+441111111111', '+442222222222');
      if (result && typeof (result as { pages?: unknown }).pages === 'function') {
        const pages = (result as { pages(): AsyncIterable<unknown> }).pages();
        for await (const _page of pages) break;
      } else {
        const settled: unknown = await Promise.resolve(result).catch(() => undefined);
        const body = (settled as { body?: unknown } | undefined)?.body;
        if (body instanceof Readable) body.destroy();
      }
    } else if (value && typeof value === 'object') {
      await callEverything(value as Record<string, unknown>, names, where);
    }
  }
}

describe('client coverage of the spec endpoints', () => {
  it('reaches all 166 endpoints with the spec template, and nothing else', async () => {
    const { client, events } = testClient(() => json(200, { data: [], total: 0 }));
    const names: string[] = [];
    for (const m of MODULES) await callEverything(client[m], names, m);
    const reached = new Set(events.map((e) => `${e.method} ${e.template}`));
    const missing = SPEC_ENDPOINTS.filter((e) => !reached.has(e));
    const extra = [...reached].filter((e) => !(SPEC_ENDPOINTS as readonly string[]).includes(e));
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
    expect(SPEC_ENDPOINTS).toHaveLength(166);
    // One method per endpoint: no duplicates hiding a missing one.
    expect(names).toHaveLength(166);
  });
});

describe('client coverage of the endpoints beyond the spec', () => {
  it('reaches each listed extra endpoint from client.beyondSpec, and nothing else', async () => {
    const { client, events } = testClient(() => json(200, { data: [], total: 0 }));
    const names: string[] = [];
    await callEverything(client.beyondSpec, names, 'beyondSpec');
    const reached = [...new Set(events.map((e) => `${e.method} ${e.template}`))].sort();
    expect(reached).toEqual([...BEYOND_SPEC_ENDPOINTS].sort());
    expect(names).toHaveLength(BEYOND_SPEC_ENDPOINTS.length);
  });
});
