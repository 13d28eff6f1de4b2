// Erasing a person from the report files callsync wrote (reports.directory, one folder per account)
// and from its local e-mail outbox: text formats (CSV, TSV, JSON) are rewritten with their identifiers
// replaced by the erased token and their names by "[erased]"; an outbox message (.eml) naming them,
// in its text or its attached report, is deleted; binary formats (XLSX, PDF) cannot be edited in
// place and are counted as kept, for the operator to regenerate or delete (README "Erasure").
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { CallsyncConfig } from '../config/schema';
import { escapeRegex } from '../lib/erasure/identity';
import type { IdentityMatcher } from '../lib/erasure/matchers';
import { ERASED_TEXT } from '../lib/erasure/scrub';

/** Report formats that are text, and so can be searched and rewritten. */
export const TEXT_REPORT_EXTENSIONS = new Set(['.csv', '.tsv', '.txt', '.json']);

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

/** Files rewritten, outbox messages deleted, and binary files left as they were. */
export interface ReportFilesErasure {
  rewritten: number;
  deleted: number;
  binary: number;
}

/** An e-mail file's text with its base64 parts (the attached report) decoded. */
export function emlText(eml: string): string {
  const decoded = [...eml.matchAll(/base64\r?\n(?:[^\r\n]*\r?\n)*?\r?\n((?:[A-Za-z0-9+/=]+\r?\n?)+)/g)].map(
    (m) => Buffer.from(m[1]!.replace(/\s/g, ''), 'base64').toString('utf8'),
  );
  return [eml, ...decoded].join('\n');
}

/**
 * Rewrites the text report files under `dir` that name the person and deletes the outbox messages
 * that do; `progress` per file (heartbeats).
 */
export async function eraseFromReportFiles(
  dir: string,
  matcher: IdentityMatcher,
  names: readonly string[],
  progress: (file: string) => void = () => {},
): Promise<ReportFilesErasure> {
  const full = names.map((n) => n.trim()).filter((n) => n.length >= 5);
  const nameRe = full.length > 0 ? new RegExp(full.map(escapeRegex).join('|'), 'gi') : null;
  const result: ReportFilesErasure = { rewritten: 0, deleted: 0, binary: 0 };
  for (const file of await filesUnder(dir)) {
    progress(file);
    if (extname(file).toLowerCase() === '.eml') {
      const text = emlText(await readFile(file, 'utf8'));
      if (matcher.replaceInText(text) !== text) {
        await rm(file, { force: true });
        result.deleted++;
      }
      continue;
    }
    if (!TEXT_REPORT_EXTENSIONS.has(extname(file).toLowerCase())) {
      result.binary++;
      continue;
    }
    const text = await readFile(file, 'utf8');
    const replaced = matcher.replaceInText(text);
    if (replaced === text) continue;
    const out = nameRe ? replaced.replace(nameRe, ERASED_TEXT) : replaced;
    // Written beside it and renamed over it: a reader never sees half a file.
    await writeFile(`${file}.erasing`, out);
    await rename(`${file}.erasing`, file);
    result.rewritten++;
  }
  return result;
}
