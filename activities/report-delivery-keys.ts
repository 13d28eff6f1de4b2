// Pure naming of report deliveries: the same run, channel and target always give the same key, so
// the .eml file, the Drive appProperties value and the Message-ID of a retry match the first try's.
import { shortHash } from '../connectors/email/message';
import type { DeliveryChannel } from '../connectors/postgres/tables';

/** A delivery's key: `report-<run>-<channel>-<hash of target>` (safe as a file name and Drive value). */
export function deliveryKey(runId: string, channel: DeliveryChannel, target: string): string {
  return `report-${runId}-${channel}-${shortHash(target, 12)}`;
}

/** The e-mail target: the recipients, normalised (lower case, sorted, unique). */
export function emailTarget(recipients: readonly string[]): string {
  return [...new Set(recipients.map((r) => r.toLowerCase()))].sort().join(',');
}

/** Key of a schedule's spreadsheet in Drive's appProperties (one spreadsheet per schedule). */
export function spreadsheetKey(account: string, scheduleId: string | number): string {
  return `report-sheets-${account}-${scheduleId}`;
}

/** Whether a report is e-mailed as a Drive link rather than attached. */
export function sendsLink(bytes: number, attachmentMaxBytes: number): boolean {
  return bytes > attachmentMaxBytes;
}

/** The run id as the warehouse keys it (bigint ids travel as numbers or decimal strings). */
export function runIdText(runId: string | number): string {
  const text = String(runId).trim();
  if (!/^\d+$/.test(text))
    throw new Error(`runId must be a report_runs id (digits), got ${JSON.stringify(runId)}`);
  return text;
}
