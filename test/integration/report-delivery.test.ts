// Report delivery on real parts: PostgreSQL (report_runs, report_schedules, report_deliveries), a
// real SMTP server (smtp-server; messages parsed by mailparser, attachments read back with csv-parse,
// exceljs and pdftotext), the local outbox, and Drive and Sheets through the official clients against
// the local Google server. Deliveries interrupted between the send and its record are retried and
// land once (the SMTP case: the same Message-ID, see activities/report-delivery-activities.ts).
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ApplicationFailure } from '@temporalio/common';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { simpleParser } from 'mailparser';
import type { ActivityDeps } from '../../activities';
import { deliverReport } from '../../activities/report-delivery-activities';
import {
  createReportDeliveryServices,
  type ReportDeliveryServices,
} from '../../activities/report-delivery-services';
import { parseTestConfig } from '../support/test-config';
import type { ReportDeliveryConfigInput } from '../../config/report-delivery';
import { listRunDeliveries, openReportRun, updateReportRun } from '../../connectors/postgres';
import { silentLogger } from '../../lib/logger';
import { buildReportFile, defaultCatalogue, type ReportFormat } from '../../reports';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox';
import { makeTestCertificates } from '../support/test-certificates';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

const run = promisify(execFile);
let warehouse: MigratedWarehouse;
// Building an XLSX and a PDF first loads exceljs and pdfkit (on first use): seconds on a busy machine.
jest.setTimeout(120_000);

let smtp: SmtpInbox;
let google: FakeGoogle;
let dir: string;
let nextSchedule = 70;

const OCTOBER = { from: new Date('2026-09-30T23:00:00Z'), to: new Date('2026-10-31T23:59:59Z') };

function deliveryConfig(over: ReportDeliveryConfigInput = {}): ReportDeliveryConfigInput {
  return {
    email: {
      smtp: { host: smtp.host, port: smtp.port, user: smtp.user, password: smtp.password },
      from: 'Call reports <reports@acme.example>',
    },
    ...over,
  };
}

async function depsFor(delivery: ReportDeliveryConfigInput, hooks?: ReportDeliveryServices['hooks']) {
  const config = parseTestConfig({
    accounts: [
      {
        name: 'acme',
        platform: {
          baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
          credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
        },
      },
    ],
    reports: { delivery },
  });
  const services = await createReportDeliveryServices(config.reports.delivery);
  // Only what delivery uses: the warehouse, the config and its clients.
  const deps = {
    config,
    warehouse,
    logger: silentLogger,
    reportDelivery: { ...services, ...(hooks ? { hooks } : {}) },
  };
  return deps as unknown as ActivityDeps;
}

/** A schedule and a built run of it (billing, October 2026), its file on disk. */
async function builtRun(
  format: ReportFormat,
  emails: unknown = ['Ops@Acme.example', 'finance@acme.example', 'not an address'],
  account = 'acme',
) {
  const scheduleId = nextSchedule++;
  await warehouse.db
    .insertInto('report_schedules')
    .values({
      account,
      id: scheduleId,
      raw: '{}',
      name: 'Monthly billing export',
      emails: JSON.stringify(emails),
      report_id: 7,
      culture: '1',
      format: format === 'csv' ? '1' : format === 'xlsx' ? '2' : '0',
      timezone: 'Europe/London',
    })
    .execute();
  const { run: opened } = await openReportRun(warehouse.db, {
    account,
    scheduleId,
    reportId: 7,
    periodFrom: OCTOBER.from,
    periodTo: OCTOBER.to,
    periodLabel: '2026-10',
    timezone: 'Europe/London',
    format,
    workflowId: `report-${account}-${scheduleId}`,
    force: false,
  });
  const path = join(dir, `run-${opened.id}.${format}`);
  const built = await buildReportFile(
    warehouse.db,
    {
      account,
      reportId: 7,
      period: { ...OCTOBER, timezone: 'Europe/London', label: '2026-10' },
      format,
      culture: 'en',
    },
    defaultCatalogue(),
    path,
  );
  await updateReportRun(warehouse.db, opened.id, {
    rows: built.rows,
    bytes: built.bytes,
    checksum: built.sha256,
    filePath: path,
  });
  return { runId: opened.id, path, bytes: built.bytes };
}

async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApplicationFailure))
    throw new Error(`expected an ApplicationFailure, got ${String(err)}`);
  return err;
}

beforeAll(async () => {
  warehouse = await createMigratedWarehouse('report_delivery');
  smtp = await startSmtpInbox();
  google = await startFakeGoogle();
  // Report files go to a shared drive (a service account owns nothing in a My Drive).
  google.drive.addFolder('reports-folder', { sharedDrive: 'reports-drive' });
  google.drive.addFolder('my-drive-folder', { myDriveOf: 'ann@acme.example' });
  dir = await mkdtemp(join(tmpdir(), 'callsync-delivery-'));
  // Two charged calls in October (London), one uncharged: the billing report has two rows.
  const cdr = (id: number, calldate: string, charge: number) => ({
    account: 'acme',
    id,
    raw: '{}',
    calldate,
    src: '+442079460001',
    dst: '+14155550123',
    destination: 'US',
    billsec: 125,
    rate: 0.042,
    charge,
  });
  await warehouse.db
    .insertInto('cdrs')
    .values([
      cdr(9001, '2026-10-05T09:15:00Z', 0.0875),
      cdr(9002, '2026-10-20T16:40:00Z', 1.234),
      cdr(9003, '2026-10-21T10:00:00Z', 0),
    ])
    .execute();
}, 60_000);

afterAll(async () => {
  await smtp?.close();
  await google?.close();
  await warehouse?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('e-mail over SMTP', () => {
  it('sends the CSV once to the valid recipients, attached; a repeat finds it sent', async () => {
    const deps = await depsFor(deliveryConfig());
    const { runId } = await builtRun('csv');
    const before = smtp.messages.length;
    const result = await deliverReport(deps, { runId, channel: 'email' });
    expect(result).toMatchObject({ channel: 'email', state: 'sent' });
    expect(await deliverReport(deps, { runId, channel: 'email' })).toMatchObject({
      state: 'already-sent',
      externalId: result.externalId,
    });
    const received = smtp.messages.slice(before);
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.envelope.to.sort()).toEqual(['finance@acme.example', 'ops@acme.example']);
    expect(mail.secure).toBe(false); // this server offers no STARTTLS
    expect(mail.parsed.messageId).toBe(result.externalId);
    expect(mail.parsed.subject).toBe('Monthly billing export – 2026-10');
    expect(mail.parsed.text).toContain('Rows: 2');
    const [attachment] = mail.parsed.attachments;
    expect(attachment?.filename).toBe('monthly-billing-export-2026-10.csv');
    const rows: string[][] = parseCsv(attachment!.content, { bom: true });
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r[0])).toEqual([expect.any(String), '9001', '9002']);
    expect(rows[2]!.join(' ')).toContain('1.23');
    const [row] = await listRunDeliveries(warehouse.db, runId);
    expect(row).toMatchObject({
      channel: 'email',
      state: 'sent',
      attempts: 1,
      external_id: result.externalId,
    });
    expect(row?.detail).toMatchObject({ invalidRecipients: ['not an address'] });
  });

  it('attaches XLSX that exceljs reads and PDF whose figures pdftotext finds', async () => {
    const deps = await depsFor(deliveryConfig());
    const xlsx = await builtRun('xlsx');
    const pdf = await builtRun('pdf');
    const before = smtp.messages.length;
    await deliverReport(deps, { runId: xlsx.runId, channel: 'email' });
    await deliverReport(deps, { runId: pdf.runId, channel: 'email' });
    const [xlsxMail, pdfMail] = smtp.messages.slice(before);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsxMail!.parsed.attachments[0]!.content as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const ids: unknown[] = [];
    sheet.eachRow((r, n) => {
      if (n > 1) ids.push(r.getCell(1).value);
    });
    expect(ids.slice(-2)).toEqual([9001, 9002]);
    const pdfPath = join(dir, 'received.pdf');
    await writeFile(pdfPath, pdfMail!.parsed.attachments[0]!.content);
    const { stdout } = await run('pdftotext', ['-layout', pdfPath, '-']).catch((err: unknown) => {
      throw new Error(
        `pdftotext (Debian poppler-utils) is needed: apt-get install poppler-utils (${String(err)})`,
      );
    });
    // The PDF shows numbers in the culture's format (en: 9,001) and each call's cost.
    expect(stdout).toMatch(/9,001 .* 0\.0875/);
    expect(stdout).toMatch(/9,002 .* 1\.234/);
  });

  it('a worker killed after the server accepted, before the record: the retry resends the same Message-ID', async () => {
    let crash = true;
    const deps = await depsFor(deliveryConfig(), {
      afterEmailSent: () => {
        if (crash) {
          crash = false;
          throw new Error('worker killed');
        }
      },
    });
    const { runId } = await builtRun('csv', ['ops@acme.example']);
    const before = smtp.messages.length;
    await expect(deliverReport(deps, { runId, channel: 'email' })).rejects.toThrow('worker killed');
    const [pending] = await listRunDeliveries(warehouse.db, runId);
    expect(pending).toMatchObject({ state: 'sending', attempts: 1 });
    const result = await deliverReport(deps, { runId, channel: 'email' });
    const received = smtp.messages.slice(before);
    // The documented window: two copies, one Message-ID, which the recipient's mail system keeps once.
    expect(received.map((m) => m.parsed.messageId)).toEqual([pending!.external_id, pending!.external_id]);
    expect(result.externalId).toBe(pending!.external_id);
    expect((await listRunDeliveries(warehouse.db, runId))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('a 4xx reply is retryable and the retry sends once; a 5xx is permanent and recorded', async () => {
    const deps = await depsFor(deliveryConfig());
    const first = await builtRun('csv', ['ops@acme.example']);
    const before = smtp.messages.length;
    smtp.failNextData(451);
    const temporary = await failureOf(deliverReport(deps, { runId: first.runId, channel: 'email' }));
    expect(temporary).toMatchObject({ type: 'SmtpTemporaryError', nonRetryable: false });
    await deliverReport(deps, { runId: first.runId, channel: 'email' });
    expect(smtp.messages.length - before).toBe(1);
    const second = await builtRun('csv', ['ops@acme.example']);
    smtp.failNextData(552, 'Message size exceeds fixed limit');
    const permanent = await failureOf(deliverReport(deps, { runId: second.runId, channel: 'email' }));
    expect(permanent).toMatchObject({ type: 'SmtpRejectedError', nonRetryable: true });
    const [row] = await listRunDeliveries(warehouse.db, second.runId);
    expect(row).toMatchObject({ state: 'failed' });
    expect(row?.error).toContain('552');
  });

  it('wrong SMTP credentials fail for good, and the password appears in no error', async () => {
    const deps = await depsFor({
      email: {
        smtp: { host: smtp.host, port: smtp.port, user: smtp.user, password: 'wrong-password-value' },
      },
    });
    const { runId } = await builtRun('csv', ['ops@acme.example']);
    const err = await failureOf(deliverReport(deps, { runId, channel: 'email' }));
    expect(err).toMatchObject({ type: 'SmtpAuthError', nonRetryable: true });
    expect(JSON.stringify(await listRunDeliveries(warehouse.db, runId))).not.toContain(
      'wrong-password-value',
    );
    expect(err.message).not.toContain('wrong-password-value');
  });
});

describe('SMTP with STARTTLS', () => {
  it('upgrades the session to TLS before sending when the server offers it (requireTls)', async () => {
    const certs = makeTestCertificates('smtp.callsync.test');
    const tlsInbox = await startSmtpInbox({
      key: await readFile(certs.server.key, 'utf8'),
      cert: await readFile(certs.server.cert, 'utf8'),
    });
    try {
      const deps = await depsFor({
        email: {
          smtp: {
            host: tlsInbox.host,
            port: tlsInbox.port,
            user: tlsInbox.user,
            password: tlsInbox.password,
            requireTls: true,
            // The test CA is not in Node's trust store.
            allowSelfSigned: true,
          },
        },
      });
      const { runId } = await builtRun('csv', ['ops@acme.example']);
      await deliverReport(deps, { runId, channel: 'email' });
      expect(tlsInbox.messages.map((m) => m.secure)).toEqual([true]);
    } finally {
      await tlsInbox.close();
    }
  });
});

describe('the local outbox', () => {
  it('writes one .eml per message, named by its key; a retry after the write finds the file', async () => {
    const outboxDir = join(dir, 'outbox');
    let crash = true;
    const deps = await depsFor(
      { email: { outboxDir } },
      {
        afterEmailSent: () => {
          if (crash) {
            crash = false;
            throw new Error('worker killed');
          }
        },
      },
    );
    const { runId } = await builtRun('csv', 'ops@acme.example; finance@acme.example');
    await expect(deliverReport(deps, { runId, channel: 'email' })).rejects.toThrow('worker killed');
    const result = await deliverReport(deps, { runId, channel: 'email' });
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^report-${runId}-email-[0-9a-f]{12}\\.eml$`));
    const parsed = await simpleParser(await readFile(join(outboxDir, files[0]!)));
    expect(parsed.messageId).toBe(result.externalId);
    expect(parsed.attachments[0]?.filename).toBe('monthly-billing-export-2026-10.csv');
    expect((await listRunDeliveries(warehouse.db, runId))[0]).toMatchObject({
      state: 'sent',
      detail: { recovered: true },
    });
  });
});

describe('Google Drive and Sheets', () => {
  const googleConfig = (over: Record<string, unknown> = {}) => ({
    credentials: { serviceAccountJson: google.serviceAccountJson, selfSignedJwt: true },
    rootUrl: google.rootUrl,
    drive: { folderId: 'reports-folder' },
    ...over,
  });

  it('a worker killed between the upload and its record: the retry finds the file by its key', async () => {
    let crash = true;
    const deps = await depsFor(deliveryConfig({ google: googleConfig() }), {
      afterDriveUpload: () => {
        if (crash) {
          crash = false;
          throw new Error('worker killed');
        }
      },
    });
    const { runId, path } = await builtRun('xlsx');
    await expect(deliverReport(deps, { runId, channel: 'drive' })).rejects.toThrow('worker killed');
    const result = await deliverReport(deps, { runId, channel: 'drive' });
    const mine = [...google.drive.files.values()].filter(
      (f) => f.appProperties.callsyncRun === String(runId),
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]?.content.equals(await readFile(path))).toBe(true);
    expect(mine[0]?.name).toBe('monthly-billing-export-2026-10.xlsx');
    expect(result).toMatchObject({ state: 'sent', externalId: mine[0]?.id });
    const [row] = await listRunDeliveries(warehouse.db, runId);
    expect(row).toMatchObject({ state: 'sent', attempts: 2, detail: { foundExisting: true } });
  });

  it('a report above the size limit goes as a Drive link, and the file is uploaded once', async () => {
    const deps = await depsFor(deliveryConfig({ attachmentMaxBytes: 100, google: googleConfig() }));
    const { runId } = await builtRun('csv', ['ops@acme.example']);
    const before = smtp.messages.length;
    await deliverReport(deps, { runId, channel: 'email' });
    await deliverReport(deps, { runId, channel: 'drive' });
    const [mail] = smtp.messages.slice(before);
    expect(mail?.parsed.attachments).toHaveLength(0);
    const files = [...google.drive.files.values()].filter(
      (f) => f.appProperties.callsyncRun === String(runId),
    );
    expect(files).toHaveLength(1);
    expect(mail?.parsed.text).toContain(`https://drive.google.com/file/d/${files[0]?.id}/view`);
    expect(
      (await listRunDeliveries(warehouse.db, runId)).map((d) => `${d.channel}:${d.state}`).sort(),
    ).toEqual(['drive:sent', 'email:sent']);
  });

  it('too large to attach without Drive: a permanent failure that says what to configure', async () => {
    const deps = await depsFor(deliveryConfig({ attachmentMaxBytes: 100 }));
    const { runId } = await builtRun('csv', ['ops@acme.example']);
    const err = await failureOf(deliverReport(deps, { runId, channel: 'email' }));
    expect(err).toMatchObject({ type: 'ReportTooLargeForEmail', nonRetryable: true });
    expect(err.message).toContain('attachmentMaxBytes');
  });

  it('writes the period’s tab of the schedule’s spreadsheet once, header first', async () => {
    const deps = await depsFor(
      deliveryConfig({ google: googleConfig({ sheets: { enabled: true, batchRows: 1 } }) }),
    );
    const { runId } = await builtRun('csv');
    const result = await deliverReport(deps, { runId, channel: 'sheets' });
    expect(result.state).toBe('sent');
    const values = google.sheets.values(result.externalId!, '2026-10');
    expect(values[0]?.[0]).toBe('Call id');
    expect(values.slice(1).map((r) => r[0])).toEqual([9001, 9002]);
    expect(values[2]?.at(-1)).toBeCloseTo(1.234, 3);
    expect(await deliverReport(deps, { runId, channel: 'sheets' })).toMatchObject({ state: 'already-sent' });
    // A forced re-run rewrites the same tab in place: same content, nothing appended.
    await deliverReport(deps, { runId, channel: 'sheets', generation: 'forced-1' });
    expect(google.sheets.values(result.externalId!, '2026-10')).toEqual(values);
  });

  it('a My Drive folder is refused for good, naming the setting, before anything is uploaded', async () => {
    const uploads = () => google.requests.filter((r) => r.method === 'POST').length;
    const before = uploads();
    const drive = await depsFor(
      deliveryConfig({ google: googleConfig({ drive: { folderId: 'my-drive-folder' } }) }),
    );
    const { runId } = await builtRun('csv');
    const err = await failureOf(deliverReport(drive, { runId, channel: 'drive' }));
    expect(err).toMatchObject({ type: 'DriveFolderNotInSharedDriveError', nonRetryable: true });
    expect(err.message).toContain('reports.delivery.google.drive.folderId (my-drive-folder)');
    expect(err.message).toContain('shared drive');
    const sheets = await depsFor(
      deliveryConfig({
        google: googleConfig({ sheets: { enabled: true, folderId: 'my-drive-folder' } }),
      }),
    );
    const sheetsErr = await failureOf(deliverReport(sheets, { runId, channel: 'sheets' }));
    expect(sheetsErr.message).toContain('reports.delivery.google.sheets.folderId (my-drive-folder)');
    expect(uploads()).toBe(before);
    expect((await listRunDeliveries(warehouse.db, runId)).map((d) => d.state)).toEqual(['failed', 'failed']);
  });

  it('a report with more rows than a spreadsheet should hold is refused for Sheets, with the reason', async () => {
    const deps = await depsFor(
      deliveryConfig({ google: googleConfig({ sheets: { enabled: true, maxRows: 1 } }) }),
    );
    const { runId } = await builtRun('csv');
    const err = await failureOf(deliverReport(deps, { runId, channel: 'sheets' }));
    expect(err).toMatchObject({ type: 'ReportTooLargeForSheets', nonRetryable: true });
    expect((await listRunDeliveries(warehouse.db, runId))[0]).toMatchObject({ state: 'failed' });
  });
});

describe("an account's own delivery (accounts[].overrides.reports.delivery)", () => {
  it("writes each account's report to its own outbox; the others keep the global one", async () => {
    const globalOutbox = join(dir, 'outbox-global');
    const globexOutbox = join(dir, 'outbox-globex');
    const platform = {
      baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
      credentials: { type: 'apiKey' as const, userId: 1, apiKey: 'k' },
    };
    const config = parseTestConfig({
      accounts: [
        { name: 'acme', platform },
        {
          name: 'globex',
          platform,
          overrides: { reports: { delivery: { email: { outboxDir: globexOutbox } } } },
        },
      ],
      reports: { delivery: { email: { outboxDir: globalOutbox } } },
    });
    // The product's own services, built from each account's delivery config (none injected).
    const deps = { config, warehouse, logger: silentLogger } as unknown as ActivityDeps;
    const acme = await builtRun('csv', 'ops@acme.example');
    const globex = await builtRun('csv', 'ops@globex.example', 'globex');
    await deliverReport(deps, { runId: acme.runId, channel: 'email' });
    await deliverReport(deps, { runId: globex.runId, channel: 'email' });
    const [acmeFiles, globexFiles] = await Promise.all([readdir(globalOutbox), readdir(globexOutbox)]);
    expect(acmeFiles).toEqual([expect.stringMatching(new RegExp(`^report-${acme.runId}-email-`))]);
    expect(globexFiles).toEqual([expect.stringMatching(new RegExp(`^report-${globex.runId}-email-`))]);
  });
});
