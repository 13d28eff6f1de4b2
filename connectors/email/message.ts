// Pure pieces of a report e-mail: who it goes to, its deterministic Message-ID, subject, body and
// attachment. The same run and recipients always give the same message, so a resend is recognisably
// the same message (mail systems de-duplicate by Message-ID).
import { createHash } from 'node:crypto';
import type Mail from 'nodemailer/lib/mailer';
import { z } from 'zod';

const emailAddress = z.email();

/** The recipients of a schedule's `emails` (a list, or one string separated by commas, semicolons or spaces). */
export function parseRecipients(raw: unknown): { valid: string[]; invalid: string[] } {
  const items: unknown[] = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,;]+/) : [];
  const valid = new Set<string>();
  const invalid: string[] = [];
  for (const item of items) {
    const text = typeof item === 'string' ? item.trim() : '';
    if (text === '') {
      if (typeof item !== 'string') invalid.push(JSON.stringify(item) ?? String(item));
      continue;
    }
    if (emailAddress.safeParse(text).success) valid.add(text.toLowerCase());
    else invalid.push(text);
  }
  return { valid: [...valid].sort(), invalid };
}

/** Short stable hash of a text (hex), for keys that must not grow with their input. */
export function shortHash(text: string, length = 12): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** The Message-ID of a delivery: `<key@domain>`, the same on every attempt. */
export function reportMessageId(deliveryKey: string, domain: string): string {
  return `<${deliveryKey}@${domain}>`;
}

/** Report file formats, as the export names them. */
export type ReportFormat = 'csv' | 'xlsx' | 'pdf';

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

/** The MIME type of a report file. */
export function reportContentType(format: ReportFormat): string {
  return CONTENT_TYPES[format];
}

/** A file name for the report: the schedule's name made safe, the period, the format's extension. */
export function reportFileName(scheduleName: string, periodLabel: string, format: ReportFormat): string {
  const base = `${scheduleName} ${periodLabel}`
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${base || 'report'}.${format}`;
}

/** What a report e-mail says about its report. */
export interface ReportMessageFacts {
  scheduleName: string;
  periodLabel: string;
  periodFrom: Date;
  periodTo: Date;
  timezone?: string | undefined;
  rows: number | null;
  bytes: number;
  format: ReportFormat;
}

/** The message's subject line. */
export function reportSubject(facts: Pick<ReportMessageFacts, 'scheduleName' | 'periodLabel'>): string {
  return `${facts.scheduleName} – ${facts.periodLabel}`;
}

/** The plain-text body: what the report covers, and the Drive link when the file is too large to attach. */
export function reportText(facts: ReportMessageFacts, link?: string): string {
  const lines = [
    `${facts.scheduleName}`,
    `Period: ${facts.periodLabel} (${facts.periodFrom.toISOString()} to ${facts.periodTo.toISOString()}${
      facts.timezone ? `, ${facts.timezone}` : ''
    })`,
    ...(facts.rows !== null ? [`Rows: ${facts.rows}`] : []),
    link
      ? `The report (${facts.format.toUpperCase()}, ${formatBytes(facts.bytes)}) is too large to attach; open it in Google Drive: ${link}`
      : `The report is attached (${facts.format.toUpperCase()}, ${formatBytes(facts.bytes)}).`,
    '',
    '-- ',
    'Sent by callsync for a report schedule on the telephony platform.',
  ];
  return `${lines.join('\n')}\n`;
}

/** Bytes as B, KB or MB (1024-based, one decimal). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The nodemailer message: attached file, or a link when `link` is given. */
export function buildReportMessage(input: {
  from: string;
  replyTo?: string | undefined;
  to: string[];
  messageId: string;
  facts: ReportMessageFacts;
  file: { path: string };
  link?: string | undefined;
  date: Date;
}): Mail.Options {
  const { facts } = input;
  return {
    from: input.from,
    ...(input.replyTo ? { replyTo: input.replyTo } : {}),
    to: input.to,
    messageId: input.messageId,
    date: input.date,
    subject: reportSubject(facts),
    text: reportText(facts, input.link),
    ...(input.link
      ? {}
      : {
          attachments: [
            {
              filename: reportFileName(facts.scheduleName, facts.periodLabel, facts.format),
              path: input.file.path,
              contentType: reportContentType(facts.format),
            },
          ],
        }),
  };
}
