// How Temporal Cloud counts Actions, the unit it bills by, applied to the histories (and the few
// things outside them) a bench run leaves. Every rule is here, each citing the published page it
// follows: https://docs.temporal.io/cloud/actions (source: temporalio/documentation,
// docs/evaluate/temporal-cloud/actions.mdx). The page is the authority; where it and our reading of
// a history could differ, the rule says so.
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export const ACTIONS_PAGE = 'https://docs.temporal.io/cloud/actions';

export interface ActionRule {
  /** Actions one occurrence costs. */
  actions: number;
  /** The page's section the rule follows. */
  source: string;
  /** What counts, and how it is found. */
  counts: string;
}

export const ACTION_RULES = {
  workflow_start: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts:
      'WorkflowExecutionStarted of a client start or signal-with-start (a child is counted by its parent, a scheduled start by schedule_execution)',
  },
  continue_as_new: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts: 'WorkflowExecutionStarted of a run that continued another (continuedExecutionRunId set)',
  },
  child_workflow: {
    // "When the parent Workflow durably records the intent to start a Child Workflow, it results in
    // two Actions, one for starting the Workflow, and another for the attempted Execution."
    actions: 2,
    source: `${ACTIONS_PAGE}#child-workflows`,
    counts:
      "StartChildWorkflowExecutionInitiated in the parent's history (the child's own start is not counted again)",
  },
  schedule_execution: {
    // "Each execution of a Schedule accrues three actions: Schedule Start (two actions) and Workflow
    // started (a single action to start the target Workflow)."
    actions: 3,
    source: `${ACTIONS_PAGE}#schedules`,
    counts:
      'WorkflowExecutionStarted carrying the TemporalScheduledById search attribute (not a continued run): the workflow start and the Schedule Start',
  },
  timer: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts: "TimerStarted, including the implicit timer of TypeScript's condition() with a timeout",
  },
  search_attribute_upsert: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts:
      'UpsertWorkflowSearchAttributes, one per command whatever it sets; one that sets only TemporalChangeVersion is exempt',
  },
  signal: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts:
      "WorkflowExecutionSignaled in the receiver's history, from a client or a workflow (so a workflow's SignalExternalWorkflowExecutionInitiated is not counted again); the signal of a signal-with-start that started the run (the event right after WorkflowExecutionStarted) is part of its one start Action",
  },
  update: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts: 'WorkflowExecutionUpdateAccepted (a rejected update is billed too but leaves no event)',
  },
  workflow_options_updated: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts: 'WorkflowExecutionOptionsUpdated',
  },
  activity_attempt: {
    actions: 1,
    source: `${ACTIONS_PAGE}#activities`,
    counts:
      'each attempt of an activity: ActivityTaskStarted.attempt (the server writes only the last attempt, numbered), and for an open workflow its pending activities (attempt, less one while waiting to retry)',
  },
  local_activity: {
    // "All Local Activities associated with one Workflow Task count as a single Action. That's
    // because Temporal Cloud counts all RecordMarkers from each Workflow Task as one action."
    actions: 1,
    source: `${ACTIONS_PAGE}#activities`,
    counts:
      'the MarkerRecorded events of one workflow task (same workflowTaskCompletedEventId) together; the page counts every RecordMarker, so a task with only patch markers counts too',
  },
  workflow_task_heartbeat: {
    // "Each additional Workflow Task heartbeat after counts as an additional Action."
    actions: 1,
    source: `${ACTIONS_PAGE}#activities`,
    counts:
      'a workflow task completed while local activities still run: WorkflowTaskCompleted followed at once by WorkflowTaskScheduled (no command, no new event in between)',
  },
  activity_heartbeat: {
    actions: 1,
    source: `${ACTIONS_PAGE}#activities`,
    counts:
      'each heartbeat that reaches the server (not in histories: counted from the worker’s RecordActivityTaskHeartbeat requests)',
  },
  query: {
    actions: 1,
    source: `${ACTIONS_PAGE}#workflows`,
    counts: 'each query a worker answers (not in histories: counted from what the run issued)',
  },
} as const satisfies Record<string, ActionRule>;

export type RuleId = keyof typeof ACTION_RULES;

export type ActionCounts = Partial<Record<RuleId, number>>;

/** What one run's history cost. */
export interface HistoryCount {
  /** Actions by rule (occurrences × the rule's actions). */
  actions: ActionCounts;
  total: number;
  events: number;
  /** WorkflowTaskCompleted events. */
  workflowTasks: number;
  /** The run was started by a Schedule (not continued from one of its runs). */
  scheduled: boolean;
  /** The run continued another. */
  continued: boolean;
}

export const SCHEDULED_BY = 'TemporalScheduledById';
const CHANGE_VERSION = 'TemporalChangeVersion';

export function add(into: ActionCounts, rule: RuleId, occurrences = 1): void {
  if (occurrences === 0) return;
  into[rule] = (into[rule] ?? 0) + occurrences * ACTION_RULES[rule].actions;
}

export function sumActions(counts: ActionCounts): number {
  return Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
}

export function mergeCounts(into: ActionCounts, from: ActionCounts): ActionCounts {
  for (const [rule, n] of Object.entries(from) as [RuleId, number][]) into[rule] = (into[rule] ?? 0) + n;
  return into;
}

/** A number from a proto int64 (a Long, or a plain number in hand-built events). */
export function num(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'object' && 'toNumber' in v && typeof v.toNumber === 'function')
    return (v as { toNumber(): number }).toNumber();
  return Number(v);
}

/** Counts the Actions, events and workflow tasks of one run's history. */
export function countHistory(events: readonly HistoryEvent[]): HistoryCount {
  const actions: ActionCounts = {};
  let workflowTasks = 0;
  let scheduled = false;
  let continued = false;
  const markerTasks = new Set<number>();
  let lastCompleted = 0;
  events.forEach((e, i) => {
    const started = e.workflowExecutionStartedEventAttributes;
    if (started) {
      continued = Boolean(started.continuedExecutionRunId);
      const fields = started.searchAttributes?.indexedFields ?? {};
      if (continued) add(actions, 'continue_as_new');
      else if (started.parentWorkflowExecution) {
        // counted in the parent (child_workflow)
      } else if (SCHEDULED_BY in fields) {
        scheduled = true;
        add(actions, 'schedule_execution');
      } else add(actions, 'workflow_start');
    }
    if (e.workflowTaskCompletedEventAttributes) {
      workflowTasks++;
      lastCompleted = num(e.eventId);
      if (events[i + 1]?.workflowTaskScheduledEventAttributes) add(actions, 'workflow_task_heartbeat');
    }
    if (e.startChildWorkflowExecutionInitiatedEventAttributes) add(actions, 'child_workflow');
    if (e.timerStartedEventAttributes) add(actions, 'timer');
    const upsert = e.upsertWorkflowSearchAttributesEventAttributes;
    if (upsert) {
      const keys = Object.keys(upsert.searchAttributes?.indexedFields ?? {});
      if (keys.some((k) => k !== CHANGE_VERSION)) add(actions, 'search_attribute_upsert');
    }
    if (e.workflowExecutionSignaledEventAttributes) {
      // Signal-with-start writes the signal right after the start, before the first workflow task.
      const withStart = i === 1 && events[0]?.workflowExecutionStartedEventAttributes;
      if (!withStart) add(actions, 'signal');
    }
    if (e.workflowExecutionUpdateAcceptedEventAttributes) add(actions, 'update');
    if (e.workflowExecutionOptionsUpdatedEventAttributes) add(actions, 'workflow_options_updated');
    const activity = e.activityTaskStartedEventAttributes;
    if (activity) add(actions, 'activity_attempt', Math.max(1, activity.attempt ?? 1));
    const marker = e.markerRecordedEventAttributes;
    if (marker) markerTasks.add(num(marker.workflowTaskCompletedEventId) || lastCompleted);
  });
  add(actions, 'local_activity', markerTasks.size);
  return { actions, total: sumActions(actions), events: events.length, workflowTasks, scheduled, continued };
}

/** A pending activity of an open workflow, as DescribeWorkflowExecution lists it. */
export interface PendingActivity {
  /** 1 scheduled (waiting to start or to retry), 2 started, 3 cancel requested. */
  state?: number | null;
  attempt?: number | null;
}

/**
 * Attempts of activities still pending when the run is read (their ActivityTaskStarted is written
 * only when they finish): the current attempt when it runs, the ones before it when it waits.
 */
export function pendingActivityActions(pending: readonly PendingActivity[]): ActionCounts {
  const actions: ActionCounts = {};
  for (const p of pending) {
    const attempt = Math.max(1, p.attempt ?? 1);
    add(actions, 'activity_attempt', p.state === 1 ? attempt - 1 : attempt);
  }
  return actions;
}
