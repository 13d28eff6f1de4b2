// Job ids of a page's load and merge, derived from where the page is (account, stream, checkpoint
// scope, window, page number, keyset position) and what it holds: a retried activity that reads the
// same page asks for the same ids, BigQuery answers 409 for an id it already has, and the job is
// awaited instead of run twice. A page whose content changed in between gets new ids; its MERGE on the key stays exact.
import { createHash } from 'node:crypto';

/** Where a page sits in a sync: the checkpoint it was read at. */
export interface PagePosition {
  account: string;
  stream: string;
  /** Checkpoint scope ('' for incremental, `window:…` for a backfill window). */
  scope: string;
  since: string | null;
  until: string | null;
  page: number;
  /** The keyset position the page was read after (absent for pages read by page number). */
  afterId?: number;
}

const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** The stem shared by a page's jobs and staging table: `callsync_<stream>_p<page>_<where>_<content>`. */
export function pageJobStem(position: PagePosition, content: Buffer): string {
  const where = sha(
    JSON.stringify([
      position.account,
      position.stream,
      position.scope,
      position.since,
      position.until,
      position.page,
      // Appended only when present, so a page read by page number keeps the ids it had.
      ...(position.afterId !== undefined ? [position.afterId] : []),
    ]),
  ).slice(0, 16);
  const stream = position.stream.replace(/[^A-Za-z0-9_]/g, '_');
  return `callsync_${stream}_p${position.page}_${where}_${sha(content).slice(0, 16)}`;
}

/** One job's id: the stem, the step, and the attempt (a failed job's id is spent; the next one is used). */
export function pageJobId(stem: string, step: 'load' | 'merge', attempt: number): string {
  return `${stem}_${step}_${attempt}`;
}

/** The page's staging table (in the warehouse dataset, dropped once merged). */
export function stageTableName(stem: string): string {
  return `_stage_${stem}`;
}
