// `callsync status`: the month's Speech-to-Text usage per account against transcription.google's cap.
import type { Kysely } from 'kysely';
import type { CallsyncConfig } from '../../config/schema';
import { transcriptionUsage, usageMonth, type Database } from '../../connectors/postgres';

/** One account's transcription usage this month. */
export interface TranscriptionUsageRow {
  account: string;
  month: string;
  minutes: number;
  capMinutes: number;
  byStatus: Record<string, number>;
}

/** Usage rows for every account, or [] when transcription is not configured. */
export async function collectTranscriptionUsage(
  db: Kysely<Database>,
  config: CallsyncConfig,
  now = new Date(),
): Promise<TranscriptionUsageRow[]> {
  const google = config.transcription.google;
  if (!google) return [];
  const month = usageMonth(now);
  const rows: TranscriptionUsageRow[] = [];
  for (const { name } of config.accounts) {
    const usage = await transcriptionUsage(db, name, month);
    rows.push({
      account: name,
      month,
      minutes: Math.round((usage.seconds / 60) * 10) / 10,
      capMinutes: google.monthlyCapMinutes,
      byStatus: usage.byStatus,
    });
  }
  return rows;
}

/** The TRANSCRIPTION section of the text output; '' when there is nothing to show. */
export function formatTranscriptionUsage(rows: TranscriptionUsageRow[]): string {
  if (rows.length === 0) return '';
  const lines = rows.map((r) => {
    const jobs = Object.entries(r.byStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
    return `${r.account}  ${r.minutes} of ${r.capMinutes} min${jobs ? `  (${jobs})` : ''}`;
  });
  return [`TRANSCRIPTION (Google Speech-to-Text, ${rows[0]!.month})`, ...lines].join('\n');
}
