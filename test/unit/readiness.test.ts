// runtime/readiness.ts: checks run together under a deadline, and the answer carries only names and
// short codes, never an error's message (which can hold a connection string).
import { checkReadiness, NotReady, readinessBody, safeReason } from '../../runtime/readiness';

describe('readiness', () => {
  it('is ready when every check passes', async () => {
    const r = await checkReadiness([
      { name: 'a', probe: async () => undefined },
      { name: 'b', probe: async () => undefined },
    ]);
    expect(readinessBody(r)).toEqual({ status: 'ready', checks: { a: 'ok', b: 'ok' } });
  });

  it('names the failing checks with a code, and keeps the message out of the answer', async () => {
    const leaky = Object.assign(new Error('connect to postgres://callsync:s3cret@db:5432/warehouse failed'), {
      code: 'ECONNREFUSED',
    });
    const heard: string[] = [];
    const r = await checkReadiness(
      [
        { name: 'postgres', probe: () => Promise.reject(leaky) },
        { name: 'worker', probe: () => Promise.reject(new NotReady('not polling')) },
        { name: 'plain', probe: () => Promise.reject(new Error('password=s3cret')) },
        { name: 'fine', probe: async () => undefined },
      ],
      { onFailure: (name) => heard.push(name) },
    );
    expect(r.ready).toBe(false);
    expect(readinessBody(r)).toEqual({
      status: 'not ready',
      failing: ['postgres', 'worker', 'plain'],
      checks: { postgres: 'ECONNREFUSED', worker: 'not polling', plain: 'unavailable', fine: 'ok' },
    });
    expect(JSON.stringify(readinessBody(r))).not.toContain('s3cret');
    expect(heard).toEqual(['postgres', 'worker', 'plain']);
  });

  it('fails a probe that outlasts its deadline', async () => {
    let timer: NodeJS.Timeout | undefined;
    const r = await checkReadiness(
      [{ name: 'slow', probe: () => new Promise<void>((resolve) => (timer = setTimeout(resolve, 5_000))) }],
      { timeoutMs: 20 },
    );
    clearTimeout(timer);
    expect(r.checks).toEqual({ slow: 'timeout' });
  });

  it('serves only code-like reasons', () => {
    expect(safeReason({ code: '57P01' })).toBe('57P01');
    expect(safeReason({ code: 'connect ECONNREFUSED 10.0.0.1:5432' })).toBe('unavailable');
    expect(safeReason(undefined)).toBe('unavailable');
  });
});
