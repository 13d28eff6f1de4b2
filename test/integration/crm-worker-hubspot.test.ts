// The product's own wiring (createActivityDeps + createWorker, what `callsync worker` runs) against a
// fresh HubSpot portal: the worker creates callsync_key itself, logs a missed call on the contact
// owned by the call's user, and opens the callback task; without the schema scopes it refuses to
// start, naming the scope. At the activity boundary: a CRM 400 fails the call once (no retry) and
// shows in call_failures and `callsync status`; waiting out a Retry-After keeps the activity alive.
import { formatCallFailures } from '../../cli/commands/status-call-failures';
import { temporal } from '@temporalio/proto';
import { parseTestConfig } from '../support/test-config';
import { callWorkflowId } from '../../contracts';
import { recentCallFailures } from '../../connectors/postgres';
import { silentLogger } from '../../lib/logger';
import { metrics } from '../../lib/metrics';
import { createActivityDeps } from '../../runtime/activity-deps';
import { startFakeHubSpot, type FakeHubSpot } from '../fakes/hubspot-server';
import { startFakeSalesforce } from '../fakes/salesforce-server';
import { eventually } from '../support/eventually';
import { callbackIdOf, missedCall } from './missed-call';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(240_000);

/** callsync_call_failures_total{account="acme"} of this process (its worker runs here). */
async function callFailuresCounted(): Promise<number> {
  const { values } = await metrics().callFailures.get();
  return values.find((v) => v.labels.account === 'acme')?.value ?? 0;
}

describe('callsync worker with HubSpot on a new portal', () => {
  let fake: FakeHubSpot;
  let h: SyncHarness;

  beforeAll(async () => {
    fake = await startFakeHubSpot();
    h = await startSyncHarness({
      label: 'crm-worker-hubspot',
      cdrs: 20,
      config: {
        crm: {
          destination: { type: 'hubspot', accessToken: fake.token, basePath: fake.url },
          matchRule: 'call_owner',
        },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });

  it('creates callsync_key at start, then logs the call on the owned contact and opens the task', async () => {
    expect(fake.customProperties('calls')).toEqual(['callsync_key']);
    expect(fake.customProperties('tasks')).toEqual(['callsync_key']);

    const caller = '+442079460777';
    const owner = fake.seedOwner(h.emulator.admin.email);
    const otherOwner = fake.seedOwner('someone.else@example.com');
    // The caller is two contacts; the more recently updated one belongs to someone else.
    const owned = fake.seedContact(
      { firstname: 'Old', lastname: 'Owned', phone: caller, hubspot_owner_id: owner },
      '2026-01-01T00:00:00.000Z',
    );
    fake.seedContact(
      { firstname: 'New', lastname: 'Other', phone: caller, hubspot_owner_id: otherOwner },
      '2026-11-01T00:00:00.000Z',
    );
    const callId = await missedCall(h, caller, { userId: h.emulator.admin.user_id });

    const call = await eventually(
      async () => fake.objects('calls').find((o) => o.properties.callsync_key === `acme:${callId}`),
      'the call log in HubSpot',
      120_000,
    );
    expect(call.associations.map((a) => a.toId)).toEqual([owned]);
    expect(call.properties.hubspot_owner_id).toBe(owner);
    const task = await eventually(
      async () => fake.objects('tasks').find((o) => o.properties.callsync_key?.includes(caller)),
      'the callback task in HubSpot',
      120_000,
    );
    expect(task.associations.map((a) => a.toId)).toEqual([owned]);
  });

  it('refuses to start without the schema scopes, naming the scope to grant', async () => {
    const locked = await startFakeHubSpot({ scopes: ['crm.objects.owners.read'] });
    try {
      const config = parseTestConfig({
        accounts: [{ name: 'acme', platform: h.config.accounts[0]!.platform }],
        crm: { destination: { type: 'hubspot', accessToken: locked.token, basePath: locked.url } },
        logLevel: 'silent',
      });
      await expect(createActivityDeps(config, h.database.url, silentLogger)).rejects.toThrow(
        /CRM setup failed \(crm.destination hubspot\).*crm\.schemas\.calls\.read/,
      );
    } finally {
      await locked.close();
    }
  });

  it('refuses to start on Salesforce when a Task field callsync writes is hidden by field security', async () => {
    const sf = await startFakeSalesforce({ hiddenTaskFields: ['CallObject'] });
    try {
      const config = parseTestConfig({
        accounts: [{ name: 'acme', platform: h.config.accounts[0]!.platform }],
        crm: {
          destination: {
            type: 'salesforce',
            instanceUrl: sf.url,
            accessToken: sf.token,
            apiVersion: sf.version,
          },
        },
        logLevel: 'silent',
      });
      await expect(createActivityDeps(config, h.database.url, silentLogger)).rejects.toThrow(
        /CRM setup failed \(crm.destination salesforce\).*Task\.CallObject.*Field-Level Security/,
      );
    } finally {
      await sf.close();
    }
  });

  it('records a CRM 400 once, as a typed failure shown by status, instead of retrying for ever', async () => {
    const caller = '+442079460778';
    // HubSpot's validation errors quote the values they refuse: here, the caller's number.
    const quoted = `Property values were not valid: "${caller}" was not a valid value for hs_call_from_number (fault injected by the test (400))`;
    fake.failNext('POST', '/crm/v3/objects/calls/batch/create', 400, 1, undefined, quoted);
    const before = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === '/crm/v3/objects/calls/batch/create',
    ).length;
    const countedBefore = await callFailuresCounted();
    const callId = await missedCall(h, caller);
    const handle = h.client.workflow.getHandle(callWorkflowId('acme', callId));
    await expect(handle.result()).rejects.toThrow();

    const posts = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === '/crm/v3/objects/calls/batch/create',
    );
    expect(posts.length - before).toBe(1);
    const failures = await recentCallFailures(h.deps.warehouse.db);
    const failure = failures.find((f) => f.subject === String(callId));
    expect(failure).toMatchObject({
      account: 'acme',
      workflow_type: 'callLifecycle',
      activity: 'logCall',
      failure_type: 'CrmBadRequestError',
    });
    expect(failure?.message).toMatch(/fault injected by the test \(400\)/);
    // Counted for the alert CallsyncCallFailures, once.
    expect(await callFailuresCounted()).toBe(countedBefore + 1);
    // Neither the row nor the raw history (read without the codec) holds the number in clear; the
    // client, with the codec, reads the failure as HubSpot wrote it.
    expect(failure?.message).toContain('"[number …78]" was not a valid value');
    const raw = await h.client.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId: callWorkflowId('acme', callId) },
    });
    const rawText = Buffer.from(temporal.api.history.v1.History.encode(raw.history!).finish()).toString(
      'latin1',
    );
    expect(rawText).toContain('Encoded failure');
    for (const digits of [caller, caller.slice(1), '2079460778']) expect(rawText).not.toContain(digits);
    const messages: string[] = [];
    for (
      let e = (await handle.result().catch((err: unknown) => err)) as Error | undefined;
      e;
      e = e.cause as Error
    )
      messages.push(e.message);
    expect(messages.join('\n')).toContain(`"${caller}" was not a valid value`);
    expect(formatCallFailures(failures)).toMatch(
      new RegExp(`FAILED CALL FOLLOW-UPS[\\s\\S]*callLifecycle ${callId}  logCall: CrmBadRequestError`),
    );
  });

  it("records a callback whose task HubSpot refuses, under the caller's number", async () => {
    const caller = '+442079460780';
    fake.failNext('POST', '/crm/v3/objects/tasks/batch/create', 400);
    await missedCall(h, caller);
    const callback = h.client.workflow.getHandle(callbackIdOf(h, caller));
    await eventually(() => callback.describe().catch(() => undefined), 'the callback workflow', 60_000);
    await expect(callback.result()).rejects.toThrow();
    // The subject is the caller, masked: call_failures holds no number in clear.
    const failure = (await recentCallFailures(h.deps.warehouse.db)).find((f) => f.subject === '[number …80]');
    expect(failure).toMatchObject({
      workflow_type: 'callback',
      activity: 'upsertCallbackTask',
      failure_type: 'CrmBadRequestError',
    });
  });

  it('heartbeats while it waits out HubSpot Retry-After answers longer than the heartbeat timeout', async () => {
    const caller = '+442079460779';
    // Two 429s of 9 s each on the call's (batch) create: the connector waits 18 s inside one attempt of
    // logCall (the heartbeat timeout is 15 s).
    fake.failNext('POST', '/crm/v3/objects/calls/batch/create', 429, 2, 9);
    const callId = await missedCall(h, caller);
    const handle = h.client.workflow.getHandle(callWorkflowId('acme', callId));
    await eventually(
      async () => fake.objects('calls').find((o) => o.properties.callsync_key === `acme:${callId}`),
      'the call log after the rate limit',
      120_000,
    );
    // The log is in HubSpot as soon as the batch is written; the activity's start and completion
    // reach the history together, once it returns.
    const events = await eventually(
      async () => {
        const all = (await handle.fetchHistory()).events ?? [];
        return all.some((e) => e.activityTaskCompletedEventAttributes) ? all : undefined;
      },
      'logCall completed in the history',
      60_000,
    );
    expect(events.filter((e) => e.activityTaskTimedOutEventAttributes)).toEqual([]);
    const attempts = events
      .map((e) => e.activityTaskStartedEventAttributes?.attempt)
      .filter((a) => a !== undefined);
    expect(attempts.length).toBeGreaterThan(0);
    expect(Math.max(...attempts.map(Number))).toBe(1);
    const throttled = fake.requests.filter(
      (r) => r.path === '/crm/v3/objects/calls/batch/create' && r.status === 429,
    );
    expect(throttled.length).toBeGreaterThanOrEqual(2);
  });
});
