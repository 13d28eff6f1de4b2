// The local Temporal dev server never passes another server off as its own: asked for a port that
// another Temporal holds, it starts on a free one, says so, and proves the server at its address
// is the one it started (its marker namespace).
import { isOwnServer, startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { freePort } from '../../lib/free-port';

jest.setTimeout(120_000);

describe('startTemporalDevServer', () => {
  const started: RunningTemporal[] = [];
  afterAll(async () => {
    await Promise.all(started.map((t) => t.stop()));
  });

  it('takes another port when the preferred one is another Temporal’s, and says so', async () => {
    const port = await freePort();
    const foreign = await startTemporalDevServer({ port });
    started.push(foreign);
    expect(foreign.address).toBe(`127.0.0.1:${port}`);

    const notices: string[] = [];
    const ours = await startTemporalDevServer({ port, onNotice: (m) => notices.push(m) });
    started.push(ours);

    expect(ours.address).not.toBe(foreign.address);
    expect(notices.join('\n')).toMatch(
      new RegExp(`port ${port} \\(Temporal\\) is taken; using ${ours.port}`),
    );
    expect(await isOwnServer(ours.address, ours.ownerNamespace)).toBe(true);
    // The other server does not have our marker, and we do not have its.
    expect(await isOwnServer(foreign.address, ours.ownerNamespace)).toBe(false);
    expect(await isOwnServer(ours.address, foreign.ownerNamespace)).toBe(false);
  });
});
