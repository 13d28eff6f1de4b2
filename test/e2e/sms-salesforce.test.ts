// A received SMS on the Salesforce contact, end to end: the emulator sends sms.received (each
// delivery twice) to the receiver, whose fast path starts the smsReceived workflow at once; the
// worker reads the message back, stores it in the warehouse and logs it as a completed Task on the
// sender's Contact in the Salesforce test server. Redelivery, the SMS stream's poll and the
// scheduled pass all see the same message afterwards: still one Task.
import {
  conversationsWorkflow,
  smsReceivedWorkflowId,
  syncStreamWorkflow,
  type SmsReceivedResult,
} from '../../contracts';
import { startFakeSalesforce, type FakeSalesforce } from '../fakes/salesforce-server';
import { workflowResult } from '../support/workflow-result';
import { startCrmStack, type CrmStack } from './crm-stack';

jest.setTimeout(300_000);

describe('a received SMS on the Salesforce contact', () => {
  let fake: FakeSalesforce;
  let stack: CrmStack;

  beforeAll(async () => {
    fake = await startFakeSalesforce();
    stack = await startCrmStack('sms-salesforce', ['sms_received'], {
      type: 'salesforce',
      instanceUrl: fake.url,
      accessToken: fake.token,
      apiVersion: fake.version,
      requestsPerSecond: 100,
    });
    await stack.control('POST', '/webhooks/faults', { duplicate_probability: 1, seed: 5 });
  }, 240_000);

  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  it('logs it at once as a Task on the sender’s Contact, once across redelivery, the stream and the pass', async () => {
    const sender = '+447911123457';
    const lin = fake.seed('Contact', { FirstName: 'Lin', LastName: 'Sender', MobilePhone: '07911 123457' });
    const { event } = (await stack.control('POST', '/simulator/sms', {
      from: sender,
      text: 'Can you call me back?',
    })) as { event: { id: string } };
    const result = await workflowResult<SmsReceivedResult>(
      stack.temporal,
      smsReceivedWorkflowId('acme', event.id),
    );
    const key = `acme:sms:${result.smsId}`;
    const tasks = () => fake.records('Task').filter((r) => r.fields.CallObject === key);
    expect(result.crmId).toBe(tasks()[0]?.Id);
    expect(tasks()[0]!.fields).toMatchObject({
      TaskSubtype: 'Task',
      Status: 'Completed',
      WhoId: lin,
      Description: 'Can you call me back?',
    });
    expect(String(tasks()[0]!.fields.Subject)).toContain(sender);
    // In the warehouse before any poll of the SMS stream.
    const stored = await stack.h.deps.warehouse.db
      .selectFrom('sms')
      .select(['id', 'message'])
      .where('id', '=', result.smsId)
      .execute();
    expect(stored).toEqual([{ id: result.smsId, message: 'Can you call me back?' }]);

    // Every delivery came twice; then the stream's poll and the scheduled pass see the same SMS.
    await stack.control('POST', '/webhooks/deliveries/wait', { timeout_ms: 20_000 });
    await stack.h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: stack.h.taskQueue,
      workflowId: 'sms-sf-sync-1',
      args: [{ account: 'acme', stream: 'sms' }],
    });
    await stack.h.client.workflow.execute(conversationsWorkflow, {
      taskQueue: stack.h.taskQueue,
      workflowId: 'sms-sf-pass-1',
      args: [{ account: 'acme' }],
    });
    expect(tasks()).toHaveLength(1);
    const creates = fake.requests.filter(
      (r) =>
        r.method === 'POST' &&
        (r.path.endsWith('/sobjects/Task') || r.path.endsWith('/composite/sobjects')) &&
        JSON.stringify(r.body).includes(key),
    );
    expect(creates).toHaveLength(1);
  });
});
