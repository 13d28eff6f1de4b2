// The cost bench's Action rules (bench/cost/action-rules.ts), fed small hand-built histories: each
// rule of https://docs.temporal.io/cloud/actions as the bench reads it from events, including the
// grouping of local activities by workflow task and the attempts of retried activities.
import type { temporal } from '@temporalio/proto';
import {
  ACTION_RULES,
  countHistory,
  pendingActivityActions,
  SCHEDULED_BY,
} from '../../bench/cost/action-rules';
import { heartbeatsIn } from '../../bench/cost/heartbeats';
import type { Chain } from '../../bench/cost/histories';
import {
  projectCallWorkflow,
  RECORDING_CHECK_STEPS_MS,
  remainingRecordingChecks,
} from '../../bench/cost/projection';
import { FIRST_RECORDING_CHECK_MS, nextRecordingCheck } from '../../workflows/recording-checks';

type Event = temporal.api.history.v1.IHistoryEvent;
type EventId = NonNullable<Event['eventId']>;

/** An event id as the proto types have it (a Long; the counting reads plain numbers too). */
const id = (n: number): EventId => n as unknown as EventId;

/** Numbers the events 1, 2, … in order. */
function history(...events: Event[]): Event[] {
  return events.map((e, i) => ({ ...e, eventId: id(i + 1) }));
}

const started = (attrs: temporal.api.history.v1.IWorkflowExecutionStartedEventAttributes = {}): Event => ({
  workflowExecutionStartedEventAttributes: { workflowType: { name: 'wf' }, ...attrs },
});
const taskScheduled: Event = { workflowTaskScheduledEventAttributes: {} };
const taskStarted: Event = { workflowTaskStartedEventAttributes: {} };
const taskCompleted = (): Event => ({ workflowTaskCompletedEventAttributes: {} });
/** One workflow task: scheduled, started, completed. */
const task = (): Event[] => [taskScheduled, taskStarted, taskCompleted()];
const marker = (name = 'core_local_activity'): Event => ({
  markerRecordedEventAttributes: { markerName: name },
});
const signaled: Event = { workflowExecutionSignaledEventAttributes: { signalName: 's' } };
const completed: Event = { workflowExecutionCompletedEventAttributes: {} };
const payload = { data: new Uint8Array([1]) };

describe('cost action rules', () => {
  it('every rule cites the Temporal Cloud Actions page', () => {
    for (const rule of Object.values(ACTION_RULES))
      expect(rule.source).toMatch(/^https:\/\/docs\.temporal\.io\/cloud\/actions#/);
  });

  it('a client start is one Action, and the events and workflow tasks are counted', () => {
    const c = countHistory(history(started(), ...task(), completed));
    expect(c.actions).toEqual({ workflow_start: 1 });
    expect(c.total).toBe(1);
    expect(c.events).toBe(5);
    expect(c.workflowTasks).toBe(1);
  });

  it('signal-with-start that starts the run is one Action; later signals one each', () => {
    const c = countHistory(history(started(), signaled, ...task(), signaled, ...task(), completed));
    expect(c.actions).toEqual({ workflow_start: 1, signal: 1 });
  });

  it('a continued run costs its continue-as-new start, not a schedule execution', () => {
    const c = countHistory(
      history(
        started({
          continuedExecutionRunId: 'previous',
          searchAttributes: { indexedFields: { [SCHEDULED_BY]: payload } },
        }),
        ...task(),
        completed,
      ),
    );
    expect(c.actions).toEqual({ continue_as_new: 1 });
    expect(c.continued).toBe(true);
    expect(c.scheduled).toBe(false);
  });

  it('a schedule execution is three Actions (Schedule Start two, the workflow start one)', () => {
    const c = countHistory(
      history(
        started({ searchAttributes: { indexedFields: { [SCHEDULED_BY]: payload } } }),
        ...task(),
        completed,
      ),
    );
    expect(c.actions).toEqual({ schedule_execution: 3 });
    expect(c.scheduled).toBe(true);
  });

  it('a child workflow is two Actions in its parent and none in its own history', () => {
    const parent = countHistory(
      history(
        started(),
        ...task(),
        { startChildWorkflowExecutionInitiatedEventAttributes: { workflowId: 'child' } },
        { childWorkflowExecutionStartedEventAttributes: {} },
      ),
    );
    expect(parent.actions).toEqual({ workflow_start: 1, child_workflow: 2 });
    const child = countHistory(
      history(started({ parentWorkflowExecution: { workflowId: 'parent' } }), ...task(), completed),
    );
    expect(child.actions).toEqual({});
  });

  it('timers, updates and option updates are one Action each', () => {
    const c = countHistory(
      history(
        started(),
        ...task(),
        { timerStartedEventAttributes: { timerId: '1' } },
        { timerStartedEventAttributes: { timerId: '2' } },
        { workflowExecutionUpdateAcceptedEventAttributes: {} },
        { workflowExecutionOptionsUpdatedEventAttributes: {} },
      ),
    );
    expect(c.actions).toEqual({ workflow_start: 1, timer: 2, update: 1, workflow_options_updated: 1 });
  });

  it('a search-attribute upsert is one Action per command; TemporalChangeVersion alone is exempt', () => {
    const c = countHistory(
      history(
        started(),
        ...task(),
        {
          upsertWorkflowSearchAttributesEventAttributes: {
            searchAttributes: { indexedFields: { A: payload, B: payload } },
          },
        },
        {
          upsertWorkflowSearchAttributesEventAttributes: {
            searchAttributes: { indexedFields: { TemporalChangeVersion: payload } },
          },
        },
      ),
    );
    expect(c.actions).toEqual({ workflow_start: 1, search_attribute_upsert: 1 });
  });

  it('an activity costs one Action per attempt: its started event carries the last attempt', () => {
    const c = countHistory(
      history(
        started(),
        ...task(),
        { activityTaskScheduledEventAttributes: { activityType: { name: 'once' } } },
        { activityTaskStartedEventAttributes: { scheduledEventId: id(5), attempt: 1 } },
        { activityTaskCompletedEventAttributes: { scheduledEventId: id(5) } },
        { activityTaskScheduledEventAttributes: { activityType: { name: 'retried' } } },
        { activityTaskStartedEventAttributes: { scheduledEventId: id(8), attempt: 3 } },
        { activityTaskCompletedEventAttributes: { scheduledEventId: id(8) } },
      ),
    );
    expect(c.actions).toEqual({ workflow_start: 1, activity_attempt: 4 });
  });

  it('pending activities of an open run count the attempts made so far', () => {
    expect(pendingActivityActions([{ state: 2, attempt: 1 }])).toEqual({ activity_attempt: 1 });
    // Waiting to retry: attempt 3 is next, two were made.
    expect(pendingActivityActions([{ state: 1, attempt: 3 }])).toEqual({ activity_attempt: 2 });
    expect(pendingActivityActions([{ state: 1, attempt: 1 }])).toEqual({});
  });

  it('the local activities of one workflow task are one Action together', () => {
    const c = countHistory(
      history(
        started(),
        ...task(), // 2..4: completed is event 4
        { markerRecordedEventAttributes: { markerName: 'core_patch', workflowTaskCompletedEventId: id(4) } },
        {
          markerRecordedEventAttributes: {
            markerName: 'core_local_activity',
            workflowTaskCompletedEventId: id(4),
          },
        },
        {
          markerRecordedEventAttributes: {
            markerName: 'core_local_activity',
            workflowTaskCompletedEventId: id(4),
          },
        },
        { timerStartedEventAttributes: { timerId: '1' } },
        { timerFiredEventAttributes: { timerId: '1' } },
        ...task(), // completed is event 12
        marker(), // no task id given: the task completed just before
        marker(),
        completed,
      ),
    );
    expect(c.actions).toEqual({ workflow_start: 1, local_activity: 2, timer: 1 });
  });

  it('a workflow task heartbeat while local activities retry is one more Action', () => {
    const c = countHistory(
      history(
        started(),
        ...task(),
        // The local activity outlives the workflow task: the worker completes it empty and asks for
        // another at once (no event in between), then records the marker of the retried activity.
        ...task(),
        marker(),
        completed,
      ),
    );
    expect(c.actions).toEqual({ workflow_start: 1, workflow_task_heartbeat: 1, local_activity: 1 });
    expect(c.workflowTasks).toBe(2);
  });

  it('a signal arriving between tasks is not a workflow task heartbeat', () => {
    const c = countHistory(history(started(), ...task(), signaled, ...task(), completed));
    expect(c.actions).toEqual({ workflow_start: 1, signal: 1 });
  });

  it('heartbeats are read from the worker runtime metrics, failures subtracted', () => {
    const text = [
      '# HELP temporal_request Count of client request successes by rpc name',
      'temporal_request{namespace="default",operation="RecordActivityTaskHeartbeat",service_name="temporal-core-sdk"} 7',
      'temporal_request{namespace="default",operation="PollActivityTaskQueue"} 40',
      'temporal_request_failure{namespace="default",operation="RecordActivityTaskHeartbeat",status_code="NOT_FOUND"} 2',
    ].join('\n');
    expect(heartbeatsIn(text)).toBe(5);
  });

  it("the projection's recording-check schedule is the workflow's", () => {
    const workflow = [FIRST_RECORDING_CHECK_MS];
    while (workflow.length < RECORDING_CHECK_STEPS_MS.length + 2)
      workflow.push(nextRecordingCheck(workflow.at(-1)!));
    const copy = [...RECORDING_CHECK_STEPS_MS, ...Array(2).fill(RECORDING_CHECK_STEPS_MS.at(-1))];
    expect(copy).toEqual(workflow);
  });

  it('the recording checks left follow 15 s, 1, 5, 15, 30 min, then hourly, to the horizon', () => {
    const min = 60_000;
    const checks = remainingRecordingChecks(0, 3 * 60 * min, 0);
    expect(checks).toEqual([15_000, 75_000, 375_000, 1_275_000, 3_075_000, 6_675_000, 10_275_000]);
    expect(remainingRecordingChecks(0, 3 * 60 * min, 2_000_000)).toEqual([3_075_000, 6_675_000, 10_275_000]);
  });

  it("projects an open call workflow's recording checks left, from when its log was written", () => {
    const at = (ms: number) => ({
      seconds: Math.floor(ms / 1000) as unknown as EventId,
      nanos: (ms % 1000) * 1e6,
    });
    const events = history(
      started(),
      ...task(),
      { eventTime: at(10_000), activityTaskScheduledEventAttributes: { activityType: { name: 'logCall' } } },
      { eventTime: at(10_500), activityTaskStartedEventAttributes: { scheduledEventId: id(5), attempt: 1 } },
      { eventTime: at(12_000), activityTaskCompletedEventAttributes: { scheduledEventId: id(5) } },
    );
    const chain: Chain = {
      workflowId: 'call-acme-1',
      type: 'callLifecycle',
      startMs: 0,
      open: true,
      runs: [
        {
          workflowId: 'call-acme-1',
          runId: 'r',
          type: 'callLifecycle',
          open: true,
          startMs: 0,
          closeMs: null,
          count: countHistory(events),
          events,
        },
      ],
    };
    // Logged at 12 s; at 12 s + 2,000 s the checks at 3,075, 6,675 and 10,275 s after it are left
    // before a three-hour horizon: a local activity each and one at the horizon, a timer after each.
    expect(projectCallWorkflow(chain, 3 * 3_600_000, 12_000 + 2_000_000)).toEqual({
      timer: 3,
      local_activity: 4,
    });
    // No log yet (the call or its CDR still awaited): nothing to project from.
    expect(
      projectCallWorkflow({ ...chain, runs: [{ ...chain.runs[0]!, events: events.slice(0, 4) }] }, 1, 0),
    ).toBeNull();
  });
});
