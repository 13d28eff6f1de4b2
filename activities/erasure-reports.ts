// Erasing a person from the report files callsync wrote (reports.directory, one folder per account)
// and from its local e-mail outbox: text formats (CSV, TSV, JSON) and XLSX workbooks that name them
// are rewritten with their identifiers replaced by the erased token and their names by "[erased]";
// a PDF naming them is deleted (a PDF cannot be edited in place; the erasure builds it again from the
// erased warehouse when a report run wrote it: erasure-report-rebuild.ts) and its path returned, for
// the erasure's record; an outbox message (.eml) naming them, in its text or its attached report, is
// deleted. A file it cannot read (another format, a damaged or protected workbook or PDF) is left and
// counted, and `erase --verify` lists it as not searched.
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { CallsyncConfig } from '../config/schema';
import { reportScheduleId } from '../contracts';
import type { ReportRunRow } from '../connectors/postgres';
import type { IdentityMatcher } from '../lib/erasure/matchers';
import { textEraser } from '../lib/erasure/report-cells';
import { reportFileText, rewriteXlsx } from './erasure-report-formats';

export { emlText, TEXT_REPORT_EXTENSIONS } from './erasure-report-formats';

/** Every file under `dir` (none when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    },
  );
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Where callsync writes report files and (without SMTP) report e-mails: `[place, directory]`. */
export function reportDirs(config: CallsyncConfig): [string, string][] {
  return [
    ['reports.files', resolve(config.reports.directory)],
    ['reports.outbox', resolve(config.reports.delivery.email.outboxDir)],
  ];
}

/** What the erasure did to the files of one directory. */
export interface ReportFilesErasure {
  /** Text files and workbooks rewritten. */
  rewritten: number;
  /** Outbox messages and PDFs deleted. */
  deleted: number;
  /** The PDFs among them (absolute paths), to be built again by `callsync reports run`. */
  removed: string[];
  /** Files it could not read (other formats, damaged or protected workbooks and PDFs), left as they were. */
  unread: number;
}

/** Whether a text holds one of the person's identifiers. */
const names = (matcher: IdentityMatcher, text: string) => matcher.replaceInText(text) !== text;

/**
 * Rewrites the text and XLSX report files under `dir` that name the person and deletes the PDFs and
 * outbox messages that do; `progress` per file (heartbeats).
 */
export async function eraseFromReportFiles(
  dir: string,
  matcher: IdentityMatcher,
  personNames: readonly string[],
  progress: (file: string) => void = () => {},
  /** Called with a PDF's path before it is deleted (the erasure records it). */
  beforeRemove: (file: string) => Promise<void> = async () => {},
): Promise<ReportFilesErasure> {
  const erase = textEraser(matcher, personNames);
  const result: ReportFilesErasure = { rewritten: 0, deleted: 0, removed: [], unread: 0 };
  for (const file of await filesUnder(dir)) {
    progress(file);
    const ext = extname(file).toLowerCase();
    const text = await reportFileText(file);
    if (text === null) {
      result.unread++;
      continue;
    }
    if (!names(matcher, text)) continue;
    if (ext === '.eml' || ext === '.pdf') {
      if (ext === '.pdf') await beforeRemove(file);
      await rm(file, { force: true });
      result.deleted++;
      if (ext === '.pdf') result.removed.push(file);
    } else if (ext === '.xlsx') {
      if (await rewriteXlsx(file, erase)) result.rewritten++;
    } else {
      // Written beside it and renamed over it: a reader never sees half a file.
      await writeFile(`${file}.erasing`, erase(text));
      await rename(`${file}.erasing`, file);
      result.rewritten++;
    }
  }
  return result;
}

const PERIOD_OPTION = /^\d{4}-(?:\d{2}|W\d{2}|\d{2}-\d{2})$/;

/**
 * How to build a deleted report file again: `callsync reports run` of the run that wrote it (its
 * schedule and period, forced), or a note when no run did.
 */
export function regenerateCommand(run: ReportRunRow | undefined): string {
  if (!run) return 'no report run wrote it: build it again from where it came from, if it is still needed';
  const schedule = reportScheduleId(run.account, run.schedule_id);
  const period = PERIOD_OPTION.test(run.period_label)
    ? `--period ${run.period_label}`
    : `--from <first day> --to <last day> (period ${run.period_label}: callsync reports show ${run.id})`;
  return `callsync reports run ${schedule} ${period} --force`;
}
