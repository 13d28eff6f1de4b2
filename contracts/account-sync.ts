// One long-running sync loop per account (workflows/account-sync.ts): every stream of the account
// read at its interval by one activity per turn, instead of a Temporal Schedule per stream. What the
// runtime, the CLI and the workflow share.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SyncSummary } from './sync-stream';
import { workflowRef } from './workflow-ref';

/** A stream the loop reads, and how often. */
export interface LoopStream {
  stream: string;
  everyMs: number;
}

/** A stream's run that a turn left unfinished (its budget ran out): the next turn goes on with it. */
export interface OpenStreamRun {
  runId: number;
  pages: number;
  records: number;
  quarantined: number;
  audioArchived: number;
  /** The pages are all read; what is left is archiving audio. */
  pagesDone?: true;
  /** The audio archive goes on after this id. */
  archiveAfterId?: number;
}

/** Where one stream stands in the loop, carried over continue-as-new. */
export interface LoopStreamState extends LoopStream {
  /** When its next turn is due (epoch ms, workflow time). */
  nextAt: number;
  run?: OpenStreamRun;
  /** Turns in a row that ended in a retryable failure (the next one waits longer). */
  failures: number;
  /** After a retryable failure: when the next try is due (epoch ms). */
  retryAt?: number;
}

export interface AccountSyncInput {
  account: string;
  streams: LoopStream[];
  /** The first turn waits one interval instead of reading at once. */
  startLater?: boolean;
  /** Carried over continue-as-new. */
  state?: LoopStreamState[];
  /** Turns per run before the loop continues as new (tests set it low). */
  turnsPerRun?: number;
}

/** One stream's part of a turn. */
export interface StreamTurn {
  stream: string;
  run?: OpenStreamRun;
}

export interface SyncStreamsInput {
  account: string;
  workflowId: string;
  /** A stream's turn stops reading after this long and goes on in the next turn. */
  budgetMs: number;
  turns: StreamTurn[];
}

/** How one stream's turn ended: finished (summary), unfinished (run), or failed. */
export interface StreamTurnResult {
  stream: string;
  summary?: SyncSummary;
  run?: OpenStreamRun;
  error?: string;
  /** A failure worth another try soon (network, 5xx, rate limit): the run stays open. */
  retryable?: boolean;
}

export type AccountSyncWorkflow = (input: AccountSyncInput) => Promise<void>;

export const accountSyncWorkflow = workflowRef<AccountSyncWorkflow>('accountSync');

/** The loop of one account. */
export function accountSyncWorkflowId(account: string): string {
  return `sync-${account}`;
}

/** Reads a stream now (or joins its running turn) and answers with the run's summary. */
export const syncNowUpdate = defineUpdate<SyncSummary, [{ stream: string }]>('syncNow');

/** The streams and intervals the loop should follow from now on (config changed). */
export const configureLoopSignal = defineSignal<[LoopStream[]]>('configure');

/** The streams and intervals the loop follows. */
export const loopStreamsQuery = defineQuery<LoopStream[]>('streams');
