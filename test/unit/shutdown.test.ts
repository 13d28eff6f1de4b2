import { Shutdown } from '../../lib/shutdown';
import pino from 'pino';

describe('Shutdown', () => {
  it('stops the newest first and reports nothing when every step stops', async () => {
    const order: string[] = [];
    const shutdown = new Shutdown();
    shutdown.add('database', () => void order.push('database'));
    shutdown.add('worker', async () => {
      await new Promise((r) => setTimeout(r, 10));
      order.push('worker');
    });
    shutdown.add('server', () => void order.push('server'));
    expect(await shutdown.run()).toEqual({ unfinished: [], leftRunning: [] });
    expect(order).toEqual(['server', 'worker', 'database']);
    // Steps run once: a second run has nothing left to stop.
    expect(await shutdown.run()).toEqual({ unfinished: [], leftRunning: [] });
    expect(order).toHaveLength(3);
  });

  it('goes on past a step that hangs or fails, and names it', async () => {
    const order: string[] = [];
    const shutdown = new Shutdown();
    shutdown.add('embedded PostgreSQL', () => void order.push('postgres'), { external: true });
    shutdown.add('dev server', () => new Promise<void>(() => undefined), { timeoutMs: 50, external: true });
    shutdown.add('pool', () => new Promise<void>(() => undefined), { timeoutMs: 50 });
    shutdown.add('receiver', () => {
      throw new Error('socket gone');
    });
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
    const started = Date.now();
    const report = await shutdown.run(logger);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(order).toEqual(['postgres']);
    expect(report).toEqual({ unfinished: ['receiver', 'pool', 'dev server'], leftRunning: ['dev server'] });
    const logged = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(logged).toEqual([
      'stopping receiver failed',
      'stopping pool did not finish within 0.05 s; going on',
      'stopping dev server did not finish within 0.05 s; going on',
      'stopped embedded PostgreSQL',
    ]);
  });
});
