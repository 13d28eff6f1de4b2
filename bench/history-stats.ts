// Where a bench run's Temporal work went: history events per workflow type, activities by name,
// timers and signals, summed over every workflow of the run. The Temporal server's load grows with
// these counts (each event is a write, each workflow task a round trip), so a bench prints them to
// stderr to show what a change to the workflows saved.
import type { Client } from '@temporalio/client';

export interface HistoryStats {
  workflows: number;
  events: number;
  workflowTasks: number;
  byWorkflowType: Record<string, { workflows: number; events: number; workflowTasks: number }>;
  activities: Record<string, number>;
  localActivities: number;
  timers: number;
  signals: number;
}

/** Sums the histories of every workflow on the server (read after the run, not during it). */
export async function historyStats(client: Client): Promise<HistoryStats> {
  const stats: HistoryStats = {
    workflows: 0,
    events: 0,
    workflowTasks: 0,
    byWorkflowType: {},
    activities: {},
    localActivities: 0,
    timers: 0,
    signals: 0,
  };
  for await (const wf of client.workflow.list()) {
    const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
    const type = (stats.byWorkflowType[wf.type] ??= { workflows: 0, events: 0, workflowTasks: 0 });
    const events = history.events ?? [];
    stats.workflows++;
    type.workflows++;
    stats.events += events.length;
    type.events += events.length;
    for (const e of events) {
      if (e.workflowTaskCompletedEventAttributes) {
        stats.workflowTasks++;
        type.workflowTasks++;
      }
      const scheduled = e.activityTaskScheduledEventAttributes?.activityType?.name;
      if (scheduled) stats.activities[scheduled] = (stats.activities[scheduled] ?? 0) + 1;
      if (e.markerRecordedEventAttributes) stats.localActivities++;
      if (e.timerStartedEventAttributes) stats.timers++;
      if (e.workflowExecutionSignaledEventAttributes) stats.signals++;
    }
  }
  return stats;
}
