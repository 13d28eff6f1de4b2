// Building again, from the erased warehouse, the report files the erasure had to delete (PDFs naming
// the person, which cannot be edited in place): each that a report run wrote is rebuilt at its path
// by the run's own builder, for the run's schedule and period, and not delivered again. Runs after
// the warehouse step, so the rebuilt file shows the token and "[erased]" where the person was. A
// rebuilt file that still names them (its report reads something the erasure did not change) is
// deleted again and left to the operator, with its command.
import { rm } from 'node:fs/promises';
import {
  erasureRemovedFiles,
  getReportRun,
  getReportSchedule,
  markRemovedFileRebuilt,
  updateReportRun,
} from '../connectors/postgres';
import type { IdentityMatcher } from '../lib/erasure/matchers';
import type { ActivityDeps } from './deps';
import { reportFileText } from './erasure-report-formats';
import { buildRunFile } from './report-activities';

/** Files rebuilt, and files that could not be (no schedule any more, or still naming the person). */
export interface ReportRebuild {
  rebuilt: number;
  notRebuilt: number;
}

/** Rebuilds the report files erasure `erasureId` deleted that report runs wrote; `progress` per file. */
export async function rebuildRemovedReports(
  deps: ActivityDeps,
  erasureId: string,
  matcher: IdentityMatcher,
  progress: (file: string) => void = () => {},
): Promise<ReportRebuild> {
  const db = deps.warehouse.db;
  const result: ReportRebuild = { rebuilt: 0, notRebuilt: 0 };
  for (const removed of await erasureRemovedFiles(db, erasureId)) {
    if (removed.rebuilt || removed.runId === undefined) continue;
    progress(removed.file);
    const run = await getReportRun(db, removed.runId);
    const schedule = run ? await getReportSchedule(db, run.account, run.schedule_id) : undefined;
    if (!run || !schedule) {
      result.notRebuilt++;
      continue;
    }
    const { built, filePath } = await buildRunFile(deps, run, schedule);
    const text = await reportFileText(filePath);
    if (text !== null && matcher.replaceInText(text) !== text) {
      await rm(filePath, { force: true });
      result.notRebuilt++;
      continue;
    }
    // The run describes the file now on disk.
    await updateReportRun(db, run.id, {
      rows: built.rows,
      bytes: built.bytes,
      checksum: built.sha256,
      filePath,
    });
    await markRemovedFileRebuilt(db, erasureId, removed.file);
    result.rebuilt++;
  }
  return result;
}
