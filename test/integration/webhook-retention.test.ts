// Webhook retention on the real stack (Temporal schedule, worker, PostgreSQL): relayed inbox rows and
// refused deliveries past their configured age are deleted; pending and failed rows, and recent ones,
// stay.
import { sql } from 'kysely';
import { WEBHOOK_RETENTION_SCHEDULE_ID } from '../../contracts';
import { applyRetentionSchedule } from '../../runtime/retention-schedule';
import { eventually } from '../support/eventually';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(180_000);

describe('webhook retention', () => {
  let h: SyncHarness;

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'retention',
      cdrs: 10,
      config: { server: { retention: { inbox: '1h', rejected: '2h', every: '1h' } } },
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('deletes done inbox rows and refused bodies older than configured, on its schedule', async () => {
    const db = h.deps.warehouse.db;
    const inbox = (id: string, status: string, doneAgo: string | null) =>
      sql`INSERT INTO webhook_inbox (account, event_id, event_name, call_id, body, status, done_at, received_at)
          VALUES ('acme', ${id}, 'call.hold', 1, '{}'::jsonb, ${status},
                  ${doneAgo === null ? null : sql`now() - ${doneAgo}::interval`}, now() - interval '3 days')`.execute(
        db,
      );
    await inbox('old-done', 'done', '90 minutes');
    await inbox('new-done', 'done', '30 minutes');
    await inbox('old-pending', 'pending', null);
    await inbox('old-failed', 'failed', null);
    const rejected = (reason: string, ago: string) =>
      sql`INSERT INTO webhook_rejected (account, reason, body, headers, received_at)
          VALUES ('acme', ${reason}, '{', '{}'::jsonb, now() - ${ago}::interval)`.execute(db);
    await rejected('old', '3 hours');
    await rejected('new', '1 hour');

    expect(await applyRetentionSchedule(h.client, h.config)).toBe('created');
    expect(await applyRetentionSchedule(h.client, h.config)).toBe('unchanged');
    const schedule = h.client.schedule.getHandle(WEBHOOK_RETENTION_SCHEDULE_ID);
    expect((await schedule.describe()).spec.intervals?.[0]?.every).toBe(3_600_000);
    await schedule.trigger();

    const left = await eventually(async () => {
      const rows = await db.selectFrom('webhook_inbox').select('event_id').orderBy('event_id').execute();
      return rows.some((r) => r.event_id === 'old-done') ? undefined : rows.map((r) => r.event_id);
    }, 'the old done row deleted');
    expect(left).toEqual(['new-done', 'old-failed', 'old-pending']);
    const reasons = await db.selectFrom('webhook_rejected').select('reason').execute();
    expect(reasons.map((r) => r.reason)).toEqual(['new']);
  });
});
