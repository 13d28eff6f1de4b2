// The automatic heartbeat of withFailureMapping: Temporal keeps only the latest heartbeat's details,
// and a retried attempt resumes from them (syncPages keeps its sums there). A tick of the ticker
// between the activity's own heartbeat and a crash must leave those details, not none.
import { Context } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { withFailureMapping } from '../../activities/failures';
import { ServerError } from '../../connectors/platform';

/** The shortest ticker period withFailureMapping uses (a third of this timeout, at least 200 ms). */
const HEARTBEAT_TIMEOUT_MS = 600;

/** A mock activity environment that records every heartbeat the server would receive. */
function environment(heartbeatDetails?: unknown) {
  const env = new MockActivityEnvironment({ heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS, heartbeatDetails });
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  /** Resolves on the next heartbeat sent (by the ticker, when the activity itself is waiting). */
  const nextBeat = () => new Promise<unknown>((resolve) => env.once('heartbeat', resolve));
  return { env, beats, nextBeat };
}

const sums = { pages: 3, records: 6000, inserted: 6000, updated: 0, quarantined: 0, stage: 'written' };

describe('the automatic heartbeat', () => {
  it("sends again the activity's last details, so a crash after a tick keeps its sums", async () => {
    const { env, beats, nextBeat } = environment();
    const attempt = env.run(() =>
      withFailureMapping(async () => {
        Context.current().heartbeat(sums);
        // The next page takes a while: the ticker heartbeats meanwhile; then the worker fails.
        await nextBeat();
        throw new ServerError({ status: 503, method: 'GET', path: '/cdrs', message: 'GET /cdrs: 503' });
      }),
    );
    await expect(attempt).rejects.toMatchObject({ type: 'ServerError' });
    expect(beats.length).toBeGreaterThanOrEqual(2);
    // What the server keeps for the retry: the last heartbeat's details.
    expect(beats.at(-1)).toEqual(sums);
  });

  it("sends the previous attempt's details before a retried attempt's first heartbeat", async () => {
    const { env, beats, nextBeat } = environment(sums);
    const resumed = await env.run(() =>
      withFailureMapping(async () => {
        await nextBeat();
        return Context.current().info.heartbeatDetails as unknown;
      }),
    );
    expect(resumed).toEqual(sums);
    expect(beats[0]).toEqual(sums);
  });

  it('keeps the details when the activity heartbeats without any', async () => {
    const { env, beats } = environment();
    await env.run(() =>
      withFailureMapping(async () => {
        Context.current().heartbeat(sums);
        Context.current().heartbeat();
      }),
    );
    expect(beats).toEqual([sums, sums]);
  });
});
