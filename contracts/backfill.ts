// The backfill workflows as the CLI, benchmarks and tests see them: a range split into windows, each
// window a child workflow that reports its progress to the parent.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { workflowRef } from './workflow-ref';

export interface BackfillInput {
  account: string;
  stream: string;
  /** Start of the range, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` (UTC). */
  from: string;
  /** End of the range (exclusive); now when omitted. */
  to?: string;
  /** Window length in ms; from config when omitted. */
  windowMs?: number;
  /** Windows run at once; from config when omitted. */
  parallelism?: number;
}

export interface BackfillWindowInput {
  account: string;
  stream: string;
  from: string;
  to: string;
  /** Parent workflow to report progress to. */
  parentId?: string;
  carried?: { records: number; quarantined: number };
}

/** A window's totals: sent to the parent after each page, and the window's result. */
export interface WindowTotals {
  records: number;
  quarantined: number;
}

export interface BackfillProgress {
  windowsTotal: number;
  windowsDone: number;
  records: number;
  quarantined: number;
  startedAt: number;
  recordsPerSecond: number;
  done: boolean;
}

/** The backfill's progress: windows done, records written, records per second. */
export const progressQuery = defineQuery<BackfillProgress>('progress');

/** A window's running totals, sent by the window to its parent after each page. */
export const windowProgressSignal = defineSignal<[WindowTotals & { window: string }]>('windowProgress');

/** The backfill's workflow id: one per (account, stream, range), so a second start joins the first. */
export function backfillWorkflowId(
  account: string,
  stream: string,
  from: string,
  to: string | undefined,
): string {
  const part = (s: string) => s.replace(/[ :]/g, '-');
  return `backfill-${account}-${stream}-${part(from)}-${to === undefined ? 'now' : part(to)}`;
}

/** Workflow id of one window of a backfill: under its parent's, so a restarted parent finds it. */
export function backfillWindowWorkflowId(parentId: string, from: string): string {
  return `${parentId}/${from}`;
}

/** The signature of `backfill` in `workflows/backfill.ts`. */
export type BackfillWorkflow = (input: BackfillInput) => Promise<BackfillProgress>;

/** The signature of `backfillWindow` in `workflows/backfill.ts`. */
export type BackfillWindowWorkflow = (input: BackfillWindowInput) => Promise<WindowTotals>;

/** Start a backfill through this. */
export const backfillWorkflow = workflowRef<BackfillWorkflow>('backfill');

/** A backfill's window (started by the backfill itself). */
export const backfillWindowWorkflow = workflowRef<BackfillWindowWorkflow>('backfillWindow');
