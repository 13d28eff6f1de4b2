// Every run on the bench's Temporal server, read after the bench: its history counted by the action
// rules, and for a run still open its pending activities (whose attempts no event records yet).
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { countHistory, mergeCounts, pendingActivityActions, type HistoryCount } from './action-rules';

export interface RunRecord {
  workflowId: string;
  runId: string;
  type: string;
  open: boolean;
  startMs: number;
  closeMs: number | null;
  count: HistoryCount;
  events: temporal.api.history.v1.IHistoryEvent[];
}

export async function readRuns(client: Client, log: (m: string) => void): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for await (const wf of client.workflow.list()) {
    const handle = client.workflow.getHandle(wf.workflowId, wf.runId);
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    const count = countHistory(events);
    const open = wf.status.name === 'RUNNING';
    if (open) {
      const described = await handle.describe();
      const pending = pendingActivityActions(described.raw.pendingActivities ?? []);
      mergeCounts(count.actions, pending);
      count.total = Object.values(count.actions).reduce((a, b) => a + (b ?? 0), 0);
    }
    runs.push({
      workflowId: wf.workflowId,
      runId: wf.runId,
      type: wf.type,
      open,
      startMs: wf.startTime.getTime(),
      closeMs: wf.closeTime?.getTime() ?? null,
      count,
      events,
    });
    if (runs.length % 100 === 0) log(`read ${runs.length} histories`);
  }
  return runs;
}

/** Runs of one workflow id (a chain of continue-as-new runs, or one run), oldest first. */
export interface Chain {
  workflowId: string;
  type: string;
  runs: RunRecord[];
  /** When the chain's first run started. */
  startMs: number;
  open: boolean;
}

export function chains(runs: readonly RunRecord[]): Chain[] {
  const byId = new Map<string, RunRecord[]>();
  for (const r of runs) byId.set(r.workflowId, [...(byId.get(r.workflowId) ?? []), r]);
  return [...byId.entries()].map(([workflowId, rs]) => {
    rs.sort((a, b) => a.startMs - b.startMs);
    return {
      workflowId,
      type: rs[0]!.type,
      runs: rs,
      startMs: rs[0]!.startMs,
      open: rs.some((r) => r.open),
    };
  });
}
