// Report delivery through the real reportExport workflow (emulator, Temporal dev server, PostgreSQL,
// worker): the run's report lands once in the outbox even when the worker dies between writing the
// message and recording it (Temporal retries the activity, which finds the message); a repeated run
// delivers nothing more, and a forced one delivers once more.
import { readdir, readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createReportDeliveryServices } from '../../activities/report-delivery-services';
import { listReportRuns, listRunDeliveries } from '../../connectors/postgres';
import { reportExportWorkflow } from '../../contracts';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(120_000);

describe('report delivery in the reportExport workflow', () => {
  let h: SyncHarness;
  let outbox: string;
  let crashes = 0;

  beforeAll(async () => {
    h = await startSyncHarness({
      label: 'report_delivery_wf',
      cdrs: 50,
      config: { reports: { directory: mkdtempSync(join(tmpdir(), 'callsync-reports-')) } },
      inProcessWorker: false,
    });
    outbox = h.config.reports.delivery.email.outboxDir;
    const services = await createReportDeliveryServices(h.config.reports.delivery);
    // The worker "dies" once between writing the message and recording it as sent.
    h.deps.reportDelivery = {
      ...services,
      hooks: {
        afterEmailSent: () => {
          if (crashes++ === 0) throw new Error('worker killed after the send');
        },
      },
    };
    await h.startWorker();
    await h.deps.warehouse.db
      .insertInto('report_schedules')
      .values({
        account: 'acme',
        id: 9501,
        raw: '{}',
        name: 'Daily billing',
        report_id: 7,
        format: '1',
        culture: '1',
        status: '1',
        timezone: 'UTC',
        emails: JSON.stringify(['ops@example.com', 'finance@example.com']),
        frequency: JSON.stringify({
          type: 'daily',
          time_of_day: ['07:00'],
          day_of_week: [],
          day_of_month: [],
        }),
      })
      .execute();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const exportRun = (workflowId: string, force = false) =>
    h.client.workflow.execute(reportExportWorkflow, {
      taskQueue: h.taskQueue,
      workflowId,
      args: [
        { account: 'acme', scheduleId: 9501, period: { period: '2026-10-05' }, ...(force ? { force } : {}) },
      ],
    });

  it('delivers once despite a crash mid-delivery, once more only when forced', async () => {
    const first = await exportRun('report-delivery-wf-1');
    expect(first).toMatchObject({ outcome: 'built', deliveries: 1 });
    // The retry found the message in the outbox instead of writing it again.
    expect(crashes).toBe(1);
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(join(outbox, files[0]!)));
    expect(mail.subject).toBe('Daily billing – 2026-10-05');
    expect(mail.attachments[0]?.filename).toBe('daily-billing-2026-10-05.csv');
    const [delivery] = await listRunDeliveries(h.deps.warehouse.db, first.runId);
    expect(delivery).toMatchObject({
      channel: 'email',
      state: 'sent',
      external_id: mail.messageId,
      detail: { recovered: true },
    });
    const [run] = await listReportRuns(h.deps.warehouse.db, 'acme', 9501);
    expect(run?.status).toBe('succeeded');

    const repeat = await exportRun('report-delivery-wf-2');
    expect(repeat).toMatchObject({ outcome: 'already-done', runId: first.runId });
    expect(await readdir(outbox)).toHaveLength(1);

    const forced = await exportRun('report-delivery-wf-3', true);
    expect(forced).toMatchObject({ outcome: 'built', deliveries: 1, runId: first.runId });
    expect(await readdir(outbox)).toHaveLength(2);
    expect(await listRunDeliveries(h.deps.warehouse.db, first.runId)).toHaveLength(2);
  });
});
