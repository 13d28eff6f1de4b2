// Delivers a finished report exactly once per run and target: by e-mail (SMTP, or an .eml file in the
// local outbox), to Google Drive, and into Google Sheets. Each delivery is recorded in
// report_deliveries before it is sent ('sending', with the id it will carry) and after ('sent'):
// - Drive: before uploading, the file is looked up by its key in appProperties, so a retry after an
//   upload whose record was lost finds the file instead of uploading a second one.
// - Outbox: the .eml file appears whole (renamed into place) or not at all; a retry finds it.
// - SMTP: a server cannot be asked whether it accepted a message, so the window between its 250 reply
//   and the 'sent' commit (one UPDATE, nothing else in between) is an at-most-one-duplicate window: a
//   worker killed exactly there makes the retry send again, with the same Message-ID, which mail
//   systems (Gmail, Exchange) de-duplicate. Any other failure point sends once.
// - Sheets: the tab's name comes from the period and is cleared and rewritten, never appended to.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { classifySmtpError } from '../connectors/email/errors';
import {
  buildReportMessage,
  parseRecipients,
  reportContentType,
  reportFileName,
  reportMessageId,
  type ReportFormat,
} from '../connectors/email/message';
import { classifyGoogleError } from '../connectors/google/errors';
import { sheetTitle } from '../connectors/google/sheets';
import {
  claimDelivery,
  getReportRun,
  getReportSchedule,
  markDeliveryFailed,
  markDeliverySending,
  markDeliverySent,
} from '../connectors/postgres';
import type {
  DeliveryChannel,
  ReportDeliveryRow,
  ReportRunRow,
  ReportScheduleRow,
} from '../connectors/postgres';
import { cultureFromCode, describeReport, reportRows } from '../reports';
import type { ActivityDeps } from './deps';
import { deliveryKey, emailTarget, runIdText, sendsLink, spreadsheetKey } from './report-delivery-keys';
import { reportDeliveryServices, type ReportDeliveryServices } from './report-delivery-services';
import { reportDeliveryOf } from '../config/account-settings';

/** Which run to deliver; everything else is read from report_runs and report_schedules. */
export interface DeliverReportInput {
  runId: number | string;
  /**
   * A forced re-run's own id (e.g. its workflow id): deliveries already sent for the run are made
   * again, once, for this generation. Omitted: the run's deliveries happen once, ever.
   */
  generation?: string;
}

/** What a delivery did: sent now, found sent by an earlier attempt, or skipped (channel not used). */
export interface DeliverReportResult {
  channel: DeliveryChannel;
  state: 'sent' | 'already-sent' | 'skipped';
  /** Message-ID, Drive file id or spreadsheet id. */
  externalId?: string;
  url?: string;
  reason?: string;
}

interface RunContext {
  runId: string;
  /** Suffix of every target of a forced re-run's deliveries ('' for the run's own). */
  generation: string;
  run: ReportRunRow;
  schedule: ReportScheduleRow;
  format: ReportFormat;
  filePath: string;
  bytes: number;
}

const failure = (type: string, message: string, nonRetryable = true) =>
  ApplicationFailure.create({ type, message, nonRetryable });

async function loadRun(deps: ActivityDeps, input: DeliverReportInput): Promise<RunContext> {
  const runId = runIdText(input.runId);
  const run = await getReportRun(deps.warehouse.db, Number(runId));
  if (!run) throw failure('ReportRunMissing', `report run ${runId} does not exist`);
  const schedule = await getReportSchedule(deps.warehouse.db, run.account, Number(run.schedule_id));
  if (!schedule) {
    throw failure(
      'ReportScheduleMissing',
      `report schedule ${run.schedule_id} of ${run.account} is not in the warehouse`,
    );
  }
  if (!run.file_path || run.bytes === null || !run.format) {
    throw failure(
      'ReportNotBuilt',
      `report run ${runId} has no file yet (file_path, bytes and format are needed)`,
    );
  }
  const format = run.format as ReportFormat;
  if (!['csv', 'xlsx', 'pdf'].includes(format))
    throw failure('ReportNotBuilt', `report run ${runId}: format ${run.format}`);
  const generation = input.generation ? `#${input.generation}` : '';
  return { runId, generation, run, schedule, format, filePath: run.file_path, bytes: Number(run.bytes) };
}

function already(row: ReportDeliveryRow): DeliverReportResult {
  return {
    channel: row.channel,
    state: 'already-sent',
    ...(row.external_id ? { externalId: row.external_id } : {}),
    ...(row.external_url ? { url: row.external_url } : {}),
  };
}

/** Runs a Google call, turning its errors into retryable or permanent failures (recorded when permanent). */
async function google<T>(
  deps: ActivityDeps,
  row: ReportDeliveryRow,
  what: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const f = classifyGoogleError(err, what);
    if (!f.retryable) await markDeliveryFailed(deps.warehouse.db, row.id, f.message);
    throw ApplicationFailure.create({
      type: f.type,
      message: f.message,
      nonRetryable: !f.retryable,
      ...(f.retryAfterMs ? { nextRetryDelay: f.retryAfterMs } : {}),
    });
  }
}

/** Uploads the run's file to the Drive folder once; a second call finds the first upload. */
async function deliverDrive(deps: ActivityDeps, services: ReportDeliveryServices, ctx: RunContext) {
  const folderId = reportDeliveryOf(deps.config, ctx.run.account).google?.drive?.folderId;
  if (!services.drive || !folderId)
    return { channel: 'drive', state: 'skipped', reason: 'Drive is not configured' } as const;
  const target = `${folderId}${ctx.generation}`;
  const key = deliveryKey(ctx.runId, 'drive', target);
  const row = await claimDelivery(deps.warehouse.db, {
    runId: ctx.runId,
    channel: 'drive',
    target,
    deliveryKey: key,
  });
  if (row.state === 'sent') return already(row);
  await markDeliverySending(deps.warehouse.db, row.id, null);
  const drive = services.drive;
  const { file, uploaded } = await google(deps, row, 'Drive upload', async () => {
    await drive.requireWritableFolder(folderId, 'reports.delivery.google.drive.folderId');
    return drive.ensureUploaded({
      folderId,
      key,
      name: reportFileName(
        ctx.schedule.name ?? `report ${ctx.run.schedule_id}`,
        ctx.run.period_label,
        ctx.format,
      ),
      mimeType: reportContentType(ctx.format).split(';')[0] ?? 'application/octet-stream',
      source: { path: ctx.filePath, size: ctx.bytes },
      appProperties: { callsyncRun: ctx.runId },
    });
  });
  await services.hooks?.afterDriveUpload?.(key);
  const url = file.webViewLink ?? `https://drive.google.com/file/d/${file.id}/view`;
  await markDeliverySent(deps.warehouse.db, row.id, {
    externalId: file.id,
    externalUrl: url,
    detail: { name: file.name, size: file.size, foundExisting: !uploaded },
  });
  return { channel: 'drive', state: 'sent', externalId: file.id, url } as const;
}

/** E-mails the report to the schedule's recipients once (attached, or as a Drive link when large). */
async function deliverEmail(deps: ActivityDeps, services: ReportDeliveryServices, ctx: RunContext) {
  const config = reportDeliveryOf(deps.config, ctx.run.account);
  const { valid, invalid } = parseRecipients(ctx.schedule.emails);
  if (valid.length === 0 && invalid.length === 0) {
    return { channel: 'email', state: 'skipped', reason: 'the schedule has no e-mail recipients' } as const;
  }
  const target = `${valid.length ? emailTarget(valid) : `invalid:${invalid.join(',')}`}${ctx.generation}`;
  const key = deliveryKey(ctx.runId, 'email', target);
  const row = await claimDelivery(deps.warehouse.db, {
    runId: ctx.runId,
    channel: 'email',
    target,
    deliveryKey: key,
  });
  if (row.state === 'sent') return already(row);
  if (valid.length === 0) {
    const reason = `no valid recipient in the schedule's emails (${invalid.join(', ')})`;
    await markDeliveryFailed(deps.warehouse.db, row.id, reason);
    throw failure('ReportRecipientsInvalid', reason);
  }
  let link: string | undefined;
  if (sendsLink(ctx.bytes, config.attachmentMaxBytes)) {
    const drive = await deliverDrive(deps, services, ctx);
    if (drive.state === 'skipped') {
      const reason = `the report is ${ctx.bytes} bytes, above reports.delivery.attachmentMaxBytes (${config.attachmentMaxBytes}), and Drive is not configured to carry it as a link`;
      await markDeliveryFailed(deps.warehouse.db, row.id, reason);
      throw failure('ReportTooLargeForEmail', reason);
    }
    link = drive.url;
  }
  const messageId = reportMessageId(key, config.email.messageIdDomain);
  // A message the outbox already holds went out; SMTP cannot tell (see the file's header).
  if (row.state === 'sending' && (await services.mail.delivered(key)) === true) {
    await markDeliverySent(deps.warehouse.db, row.id, { externalId: messageId, detail: { recovered: true } });
    return { channel: 'email', state: 'sent', externalId: messageId } as const;
  }
  await markDeliverySending(deps.warehouse.db, row.id, messageId);
  const message = buildReportMessage({
    from: config.email.from,
    replyTo: config.email.replyTo,
    to: valid,
    messageId,
    // The date is the run's, so a resend is byte-for-byte the same message.
    date: ctx.run.started_at ?? ctx.run.created_at,
    facts: {
      scheduleName: ctx.schedule.name ?? `Report schedule ${ctx.run.schedule_id}`,
      periodLabel: ctx.run.period_label,
      periodFrom: ctx.run.period_from,
      periodTo: ctx.run.period_to,
      timezone: ctx.run.timezone,
      rows: ctx.run.rows === null ? null : Number(ctx.run.rows),
      bytes: ctx.bytes,
      format: ctx.format,
    },
    file: { path: ctx.filePath },
    link,
  });
  let sent;
  try {
    sent = await services.mail.send(key, message);
  } catch (err) {
    const f = classifySmtpError(err);
    if (!f.retryable) await markDeliveryFailed(deps.warehouse.db, row.id, f.message);
    throw failure(f.type, f.message, !f.retryable);
  }
  await services.hooks?.afterEmailSent?.(key);
  await markDeliverySent(deps.warehouse.db, row.id, {
    externalId: messageId,
    detail: {
      transport: services.mail.kind,
      accepted: sent.accepted,
      rejected: sent.rejected,
      ...(invalid.length ? { invalidRecipients: invalid } : {}),
      ...(link ? { link } : {}),
    },
  });
  return { channel: 'email', state: 'sent', externalId: messageId } as const;
}

/** Writes the run's rows into the tab of its period in the schedule's spreadsheet. */
async function deliverSheets(deps: ActivityDeps, services: ReportDeliveryServices, ctx: RunContext) {
  const google_ = reportDeliveryOf(deps.config, ctx.run.account).google;
  const folderId = google_?.sheets.folderId ?? google_?.drive?.folderId;
  if (!services.sheets || !google_ || !folderId) {
    return { channel: 'sheets', state: 'skipped', reason: 'Sheets is not enabled' } as const;
  }
  const bookKey = spreadsheetKey(ctx.run.account, ctx.run.schedule_id);
  const title = sheetTitle(ctx.run.period_label);
  const target = `${bookKey}/${title}${ctx.generation}`;
  const key = deliveryKey(ctx.runId, 'sheets', target);
  const row = await claimDelivery(deps.warehouse.db, {
    runId: ctx.runId,
    channel: 'sheets',
    target,
    deliveryKey: key,
  });
  if (row.state === 'sent') return already(row);
  const rows = ctx.run.rows === null ? 0 : Number(ctx.run.rows);
  if (rows > google_.sheets.maxRows) {
    const reason = `the report has ${rows} rows, more than reports.delivery.google.sheets.maxRows (${google_.sheets.maxRows}); it is delivered as a file only`;
    await markDeliveryFailed(deps.warehouse.db, row.id, reason);
    throw failure('ReportTooLargeForSheets', reason);
  }
  await markDeliverySending(deps.warehouse.db, row.id, null);
  const request = {
    account: ctx.run.account,
    reportId: Number(ctx.run.report_id),
    period: {
      from: ctx.run.period_from,
      to: ctx.run.period_to,
      timezone: ctx.run.timezone,
      label: ctx.run.period_label,
    },
    culture: cultureFromCode(ctx.schedule.culture, deps.config.reports),
  };
  const described = describeReport(request, deps.config.reports.catalogue);
  const sheets = services.sheets;
  const heartbeat = activityHeartbeat();
  const written = await google(deps, row, 'Sheets write', async () => {
    const spreadsheetId = await sheets.ensureSpreadsheet({
      folderId,
      setting: google_.sheets.folderId
        ? 'reports.delivery.google.sheets.folderId'
        : 'reports.delivery.google.drive.folderId',
      key: bookKey,
      title: ctx.schedule.name ?? `Report schedule ${ctx.run.schedule_id}`,
      tab: { title, rows, columns: described.columns.length },
    });
    return sheets.writeTab({
      spreadsheetId,
      title,
      header: described.columns.map((c) => c.header),
      rows: reportRows(deps.warehouse.db, request, deps.config.reports.catalogue),
      batchRows: google_.sheets.batchRows,
      onBatch: (rows) => heartbeat?.({ rows }),
    });
  });
  await markDeliverySent(deps.warehouse.db, row.id, {
    externalId: written.spreadsheetId,
    externalUrl: written.url,
    detail: { range: written.range, rows: written.rows, tab: written.title },
  });
  return { channel: 'sheets', state: 'sent', externalId: written.spreadsheetId, url: written.url } as const;
}

function activityHeartbeat(): ((details: unknown) => void) | undefined {
  try {
    const ctx = Context.current();
    return (d) => ctx.heartbeat(d);
  } catch {
    return undefined;
  }
}

const CHANNELS = { email: deliverEmail, drive: deliverDrive, sheets: deliverSheets } as const;

/** Delivers a run's report on one channel, exactly once (the entry point the export's workflow uses). */
export async function deliverReport(
  deps: ActivityDeps,
  input: DeliverReportInput & { channel: DeliveryChannel },
): Promise<DeliverReportResult> {
  const ctx = await loadRun(deps, input);
  const services = await reportDeliveryServices(deps, reportDeliveryOf(deps.config, ctx.run.account));
  return CHANNELS[input.channel](deps, services, ctx);
}

export function createReportDeliveryActivities(deps: ActivityDeps) {
  return {
    /** Uploads the run's file into the Drive folder (skipped when Drive is not configured). */
    deliverReportDrive: (input: DeliverReportInput) => deliverReport(deps, { ...input, channel: 'drive' }),
    /** E-mails the run's report to its schedule's recipients (SMTP, or the local outbox). */
    deliverReportEmail: (input: DeliverReportInput) => deliverReport(deps, { ...input, channel: 'email' }),
    /** Writes the run's rows into its schedule's spreadsheet (skipped unless Sheets is enabled). */
    deliverReportSheets: (input: DeliverReportInput) => deliverReport(deps, { ...input, channel: 'sheets' }),
  };
}
