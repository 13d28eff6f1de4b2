import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { quietTemporalRuntime } from '../support/temporal-runtime';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import { createSmokeActivities } from '../support/smoke-activities';
import { smokeWorkflow } from '../support/smoke-workflow';

describe('Temporal dev server smoke test', () => {
  let server: RunningTemporal;

  beforeAll(async () => {
    quietTemporalRuntime();
    server = await startTemporalDevServer();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('runs one workflow with one activity through a real worker', async () => {
    const taskQueue = `smoke-${process.pid}`;
    const workerConnection = await NativeConnection.connect({ address: server.address });
    const worker = await Worker.create({
      connection: workerConnection,
      namespace: server.namespace,
      taskQueue,
      workflowsPath: require.resolve('../support/smoke-workflow'),
      activities: createSmokeActivities(),
    });
    const connection = await Connection.connect({ address: server.address });
    const client = new Client({ connection, namespace: server.namespace });
    const workflowId = `smoke-${process.pid}-${Date.now()}`;
    try {
      const result = await worker.runUntil(
        client.workflow.execute(smokeWorkflow, { taskQueue, workflowId, args: [{ callId: 42 }] }),
      );
      expect(result).toBe(`workflow saw: call 42 handled by pid ${process.pid}`);
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      const activityTypes = (history.events ?? [])
        .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
        .filter(Boolean);
      expect(activityTypes).toEqual(['describeCall']);
    } finally {
      await connection.close();
      await workerConnection.close();
    }
  }, 120_000);
});
