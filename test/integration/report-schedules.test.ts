// Report schedules on the real stack (emulator, Temporal dev server, PostgreSQL, worker): their
// Temporal Schedules fire at the right instants across the 2026 and 2027 DST changes of London, New
// York and Sydney (checked through describe() and a backfill); the mirror creates, updates only what
// changed, pauses, quarantines and deletes; runs started by trigger() and backfill() leave one
// report_runs row per period, and a repeated or retried run never makes a second one.
import { sql } from 'kysely';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mirrorReportSchedules } from '../../activities/report-schedule-mirror';
import { parseTestConfig } from '../support/test-config';
import { listQuarantined, listReportRuns, listRunDeliveries, openReportRun } from '../../connectors/postgres';
import {
  reportExportWorkflow,
  reportScheduleId,
  syncStreamWorkflow,
  SCHEDULED_START_TIME,
} from '../../contracts';
import { scheduledPeriod } from '../../reports/period';
import { eventually } from '../support/eventually';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(180_000);

const iso = (ds: readonly Date[]) => ds.map((d) => d.toISOString().replace('.000Z', 'Z'));

describe('report schedules', () => {
  let h: SyncHarness;
  const reports = mkdtempSync(join(tmpdir(), 'callsync-reports-'));
  const outbox = join(reports, 'outbox');

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'report_schedules',
      cdrs: 50,
      config: { reports: { directory: reports, delivery: { email: { outboxDir: outbox } } } },
    });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** Writes a report schedule row as the sync would (ids from 9000 up do not collide with the emulator's). */
  async function putSchedule(id: number, fields: Record<string, unknown>): Promise<void> {
    const row = {
      account: 'acme',
      id,
      raw: '{}',
      name: `test ${id}`,
      report_id: 1,
      format: '1',
      culture: '1',
      status: '1',
      emails: JSON.stringify(['ops@example.com']),
      start_at: null as string | null,
      end_at: null as string | null,
      ...fields,
      frequency: JSON.stringify(fields.frequency),
    };
    await h.deps.warehouse.db
      .insertInto('report_schedules')
      .values(row)
      .onConflict((oc) => oc.columns(['account', 'id']).doUpdateSet(row))
      .execute();
  }

  /** A separate config whose schedules start workflows on a task queue no worker polls (DST checks). */
  const idleConfig = () =>
    parseTestConfig({ ...h.config, temporal: { ...h.config.temporal, taskQueue: 'report-dst-idle' } });

  it('fires at the right instants across the 2027 DST changes (describe → nextActionTimes)', async () => {
    const daily = (t: string[]) => ({ type: 'daily', time_of_day: t, day_of_week: [], day_of_month: [] });
    const cases: [number, Record<string, unknown>, string[]][] = [
      // London 07:00: 07:00Z in winter, 06:00Z in summer, on both sides of each change.
      [
        9001,
        { timezone: 'Europe/London', frequency: daily(['07:00']), start_at: '2027-03-26 12:00:00' },
        ['2027-03-27T07:00:00Z', '2027-03-28T06:00:00Z', '2027-03-29T06:00:00Z'],
      ],
      [
        9002,
        { timezone: 'Europe/London', frequency: daily(['07:00']), start_at: '2027-10-30 12:00:00' },
        ['2027-10-31T07:00:00Z', '2027-11-01T07:00:00Z'],
      ],
      // New York 02:30 on the spring-forward day (no 02:30 exists): once, at 03:30 EDT.
      [
        9003,
        { timezone: 'America/New_York', frequency: daily(['02:30']), start_at: '2027-03-13 00:00:00' },
        ['2027-03-13T07:30:00Z', '2027-03-14T07:30:00Z', '2027-03-15T06:30:00Z'],
      ],
      // Weekly, Mondays 08:00 London, across the Sunday spring-forward.
      [
        9004,
        {
          timezone: 'Europe/London',
          frequency: { type: 'weekly', time_of_day: ['08:00'], day_of_week: [1] },
          start_at: '2027-03-20 00:00:00',
        },
        ['2027-03-22T08:00:00Z', '2027-03-29T07:00:00Z'],
      ],
      // Monthly, the 1st 06:00 New York, EST then EDT.
      [
        9005,
        {
          timezone: 'America/New_York',
          frequency: { type: 'monthly', time_of_day: ['06:00'], day_of_month: [1] },
          start_at: '2027-02-15 00:00:00',
        },
        ['2027-03-01T11:00:00Z', '2027-04-01T10:00:00Z'],
      ],
      // Sydney: autumn (AEDT → AEST, 2027-04-04) and the spring-forward Sunday 2027-10-03 at 02:30 (in the gap).
      [
        9006,
        { timezone: 'Australia/Sydney', frequency: daily(['09:00']), start_at: '2027-04-02 00:00:00' },
        ['2027-04-02T22:00:00Z', '2027-04-03T23:00:00Z'],
      ],
      [
        9007,
        {
          timezone: 'Australia/Sydney',
          frequency: { type: 'weekly', time_of_day: ['02:30'], day_of_week: [7] },
          start_at: '2027-09-20 00:00:00',
        },
        ['2027-09-25T16:30:00Z', '2027-10-02T16:30:00Z', '2027-10-09T15:30:00Z'],
      ],
    ];
    for (const [id, fields] of cases) await putSchedule(id, fields);
    const r = await mirrorReportSchedules(h.client, h.deps.warehouse.db, idleConfig(), 'acme', {
      liveIds: new Set(cases.map(([id]) => id)),
    });
    expect(r.created.sort()).toEqual(cases.map(([id]) => reportScheduleId('acme', id)).sort());
    for (const [id, , expected] of cases) {
      const d = await h.client.schedule.getHandle(reportScheduleId('acme', id)).describe();
      expect([id, iso(d.info.nextActionTimes.slice(0, expected.length))]).toEqual([id, expected]);
    }

    // New York's repeated 01:30 (2027-11-07) fires at both instants; both runs cover the same day,
    // so report_runs keeps one run (see the repeat test below).
    await putSchedule(9008, {
      timezone: 'America/New_York',
      frequency: daily(['01:30']),
      start_at: '2027-11-06 12:00:00',
    });
    await mirrorReportSchedules(h.client, h.deps.warehouse.db, idleConfig(), 'acme', {
      liveIds: new Set([9008]),
    });
    const fallBack = await h.client.schedule.getHandle(reportScheduleId('acme', 9008)).describe();
    const sameDay = fallBack.info.nextActionTimes.filter((t) => t < new Date('2027-11-07T12:00:00Z'));
    expect(iso(sameDay)[0]).toBe('2027-11-07T05:30:00Z');
    expect(new Set(sameDay.map((t) => scheduledPeriod('daily', t, 'America/New_York').label))).toEqual(
      new Set(['2027-11-06']),
    );
  });

  it('fired at the right instants across the 2026 DST changes (backfill → scheduled start times)', async () => {
    await putSchedule(9010, {
      timezone: 'Europe/London',
      frequency: { type: 'daily', time_of_day: ['07:00'], day_of_week: [], day_of_month: [] },
    });
    await putSchedule(9011, {
      timezone: 'America/New_York',
      frequency: { type: 'daily', time_of_day: ['02:30'], day_of_week: [], day_of_month: [] },
    });
    await mirrorReportSchedules(h.client, h.deps.warehouse.db, idleConfig(), 'acme', {
      liveIds: new Set([9010, 9011]),
    });
    const backfill = async (id: number, start: string, end: string) => {
      await h.client.schedule.getHandle(reportScheduleId('acme', id)).backfill({
        start: new Date(start),
        end: new Date(end),
        overlap: ScheduleOverlapPolicy.ALLOW_ALL,
      });
    };
    await backfill(9010, '2026-10-23T12:00:00Z', '2026-10-27T12:00:00Z');
    await backfill(9011, '2026-03-07T12:00:00Z', '2026-03-10T12:00:00Z');
    const started = async (id: number, n: number) =>
      eventually(async () => {
        const times: string[] = [];
        for await (const wf of h.client.workflow.list({
          query: `TemporalScheduledById = '${reportScheduleId('acme', id)}'`,
        })) {
          const at = wf.typedSearchAttributes.get(SCHEDULED_START_TIME);
          if (at) times.push(at.toISOString().replace('.000Z', 'Z'));
          if (wf.status.name === 'RUNNING') {
            await h.client.workflow.getHandle(wf.workflowId, wf.runId).terminate('DST check only');
          }
        }
        return times.length >= n ? times.sort() : undefined;
      }, `${n} backfilled runs of schedule ${id}`);
    expect(await started(9010, 4)).toEqual([
      '2026-10-24T06:00:00Z',
      '2026-10-25T07:00:00Z',
      '2026-10-26T07:00:00Z',
      '2026-10-27T07:00:00Z',
    ]);
    // 2026-03-08 New York has no 02:30: the run comes at 03:30 EDT (07:30Z), once.
    expect(await started(9011, 3)).toEqual([
      '2026-03-08T07:30:00Z',
      '2026-03-09T06:30:00Z',
      '2026-03-10T06:30:00Z',
    ]);
  });

  it('mirrors the synced schedules: create, only what changed, pause, quarantine, delete', async () => {
    const sync = () =>
      h.client.workflow.execute(syncStreamWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: `sync-report-schedules-${Date.now()}`,
        args: [{ account: 'acme', stream: 'report_schedules' }],
      });
    await sync();
    const rows = await h.deps.warehouse.db
      .selectFrom('report_schedules')
      .select(['id', 'name', 'status'])
      .where('id', '<', 9000)
      .orderBy('id')
      .execute();
    expect(rows.length).toBe(6);
    // The sync's own mirror pass made one Schedule per platform schedule, the inactive one paused.
    for (const row of rows) {
      const d = await h.client.schedule.getHandle(reportScheduleId('acme', row.id)).describe();
      expect([row.id, d.state.paused]).toEqual([row.id, row.status !== '1']);
      expect(d.action.workflowType).toBe(reportExportWorkflow.name);
      expect(d.action.args).toEqual([{ account: 'acme', scheduleId: row.id }]);
      expect(d.policies.catchupWindow).toBe(86_400_000);
    }
    const platform = h.deps.platform('acme').reports.schedules;
    const [first, second, third] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
    await platform.update(first.id, {
      frequency: { type: 'daily', time_of_day: ['06:15'], day_of_week: [], day_of_month: [] },
    });
    await platform.update(second.id, { status: 0 });
    await platform.update(third.id, { timezone: 'Mars/Olympus' });
    const gone = rows[5]!;
    await platform.delete(gone.id);
    await sync();
    const live = new Set(rows.filter((r) => r.id !== gone.id).map((r) => r.id));
    // A second pass right after changes nothing: the sync's pass already applied everything.
    const again = await mirrorReportSchedules(h.client, h.deps.warehouse.db, h.config, 'acme', {
      liveIds: live,
    });
    expect(again.created).toEqual([]);
    expect(again.updated).toEqual([]);
    expect(again.deleted).toEqual([]);
    expect(again.unchanged.length).toBe(4);
    expect(again.quarantined).toEqual([
      { id: third.id, reason: expect.stringMatching(/^timezone: .*Mars\/Olympus/) },
    ]);

    const firstNow = await h.client.schedule.getHandle(reportScheduleId('acme', first.id)).describe();
    expect(firstNow.spec.calendars?.[0]?.hour).toEqual([{ start: 6, end: 6, step: 1 }]);
    expect(firstNow.spec.calendars?.[0]?.minute).toEqual([{ start: 15, end: 15, step: 1 }]);
    expect(
      (await h.client.schedule.getHandle(reportScheduleId('acme', second.id)).describe()).state.paused,
    ).toBe(true);
    const quarantined = await listQuarantined(h.deps.warehouse.db, {
      account: 'acme',
      stream: 'reportschedules',
    });
    expect(quarantined.map((q) => [q.record_id, q.reason])).toEqual([
      [String(third.id), expect.stringMatching(/timezone/)],
    ]);
    expect(
      (await h.client.schedule.getHandle(reportScheduleId('acme', third.id)).describe()).state.paused,
    ).toBe(true);
    await expect(h.client.schedule.getHandle(reportScheduleId('acme', gone.id)).describe()).rejects.toThrow(
      /not found/i,
    );

    // Fixed on the platform: out of quarantine, running again.
    await platform.update(third.id, { timezone: 'Europe/Paris' });
    await sync();
    expect(
      await listQuarantined(h.deps.warehouse.db, { account: 'acme', stream: 'reportschedules' }),
    ).toEqual([]);
    expect(
      (await h.client.schedule.getHandle(reportScheduleId('acme', third.id)).describe()).state.paused,
    ).toBe(false);
  });

  it('trigger() and backfill() make one report_runs row per period; a repeat adds none', async () => {
    await putSchedule(9020, {
      timezone: 'Europe/London',
      frequency: { type: 'daily', time_of_day: ['07:00'], day_of_week: [], day_of_month: [] },
    });
    await mirrorReportSchedules(h.client, h.deps.warehouse.db, h.config, 'acme', {
      liveIds: new Set([9020]),
    });
    const handle = h.client.schedule.getHandle(reportScheduleId('acme', 9020));
    const runs = () => listReportRuns(h.deps.warehouse.db, 'acme', 9020);
    const settled = (n: number) =>
      eventually(async () => {
        const rs = await runs();
        return rs.length >= n && rs.every((r) => r.status === 'succeeded' || r.status === 'failed')
          ? rs
          : undefined;
      }, `${n} settled report runs`);

    await handle.backfill({
      start: new Date('2026-11-01T12:00:00Z'),
      end: new Date('2026-11-04T12:00:00Z'),
      overlap: ScheduleOverlapPolicy.ALLOW_ALL,
    });
    const three = await settled(3);
    // Runs at 07:00 on the 2nd, 3rd and 4th: each covers the day before.
    expect(three.map((r) => [r.period_label, r.status])).toEqual([
      ['2026-11-01', 'succeeded'],
      ['2026-11-02', 'succeeded'],
      ['2026-11-03', 'succeeded'],
    ]);
    // The same days again (and one more): the three are found, not redone; one new period.
    await handle.backfill({
      start: new Date('2026-11-01T12:00:00Z'),
      end: new Date('2026-11-05T12:00:00Z'),
      overlap: ScheduleOverlapPolicy.ALLOW_ALL,
    });
    const four = await settled(4);
    expect(four.map((r) => [r.period_label, r.attempts])).toEqual([
      ['2026-11-01', 1],
      ['2026-11-02', 1],
      ['2026-11-03', 1],
      ['2026-11-04', 1],
    ]);
    expect(four[0]!.file_path).toBe(join(reports, 'acme', 'schedule-9020', '2026-11-01.csv'));
    expect(four[0]!.checksum).toMatch(/^[0-9a-f]{64}$/);

    await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
    await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL);
    const yesterday = scheduledPeriod('daily', new Date(), 'Europe/London').label;
    const five = await eventually(async () => {
      const rs = await settled(5);
      const running = await h.client.workflow.count(
        `TemporalScheduledById = '${handle.scheduleId}' AND ExecutionStatus = 'Running'`,
      );
      return running.count === 0 ? rs : undefined;
    }, 'both triggered runs finished');
    expect(five.filter((r) => r.period_label === yesterday)).toHaveLength(1);
    expect(five).toHaveLength(5);
    // One e-mail per period (the local outbox: no SMTP configured), none for the repeats.
    const mails = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    expect(mails).toHaveLength(5);
    for (const r of five)
      expect((await listRunDeliveries(h.deps.warehouse.db, r.id)).map((d) => [d.channel, d.state])).toEqual([
        ['email', 'sent'],
      ]);
  });

  it('an unknown report_id fails that run with its reason, and nothing else', async () => {
    await putSchedule(9030, {
      report_id: 999,
      timezone: 'UTC',
      frequency: { type: 'daily', time_of_day: ['07:00'], day_of_week: [], day_of_month: [] },
    });
    await expect(
      h.client.workflow.execute(reportExportWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: 'report-unknown-id',
        args: [{ account: 'acme', scheduleId: 9030, period: { period: '2026-10-05' } }],
      }),
    ).rejects.toThrow();
    const [run] = await listReportRuns(h.deps.warehouse.db, 'acme', 9030);
    expect([run?.status, run?.error]).toEqual([
      'failed',
      expect.stringMatching(/UnknownReportError: report_id 999/),
    ]);
  });

  it('a retried or repeated run finds its run: one row per period, forced re-runs reuse it', async () => {
    const db = h.deps.warehouse.db;
    const open = (workflowId: string, force = false) =>
      openReportRun(db, {
        account: 'acme',
        scheduleId: 9040,
        reportId: 1,
        periodFrom: new Date('2026-10-01T00:00:00Z'),
        periodTo: new Date('2026-11-01T00:00:00Z'),
        periodLabel: '2026-10',
        timezone: 'UTC',
        format: 'csv',
        workflowId,
        force,
      });
    const a = await open('wf-a');
    // Killed mid-build, the activity retried by the same workflow: the same run, still to do.
    await sql`UPDATE report_runs SET status = 'building' WHERE id = ${a.run.id}`.execute(db);
    const retried = await open('wf-a');
    expect([retried.run.id, retried.proceed, retried.run.attempts]).toEqual([a.run.id, true, 1]);
    await sql`UPDATE report_runs SET status = 'succeeded' WHERE id = ${a.run.id}`.execute(db);
    const repeat = await open('wf-b');
    expect([repeat.run.id, repeat.proceed]).toEqual([a.run.id, false]);
    const forced = await open('wf-c', true);
    expect([forced.run.id, forced.proceed, forced.run.status, forced.run.attempts]).toEqual([
      a.run.id,
      true,
      'queued',
      2,
    ]);
    expect(await listReportRuns(db, 'acme', 9040)).toHaveLength(1);
  });
});
