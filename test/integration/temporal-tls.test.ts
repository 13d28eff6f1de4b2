// Temporal over TLS and mTLS for real: certificates made by openssl, Debian's nginx terminating TLS
// (requiring a client certificate) in front of the Temporal dev server, and callsync's own
// connection functions (runtime/temporal-connection.ts) building both the worker's and the client's
// connection from a `temporal` config block parsed by the config schema.
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { parseTestConfig } from '../support/test-config';
import { startTemporalDevServer, type RunningTemporal } from '../../local/temporal-dev-server';
import {
  connectTemporalClient,
  connectTemporalWorker,
  type TemporalConnectionSettings,
} from '../../runtime/temporal-connection';
import { startNginxGrpcTls, type RunningNginx } from '../support/nginx-grpc-tls';
import { createSmokeActivities } from '../support/smoke-activities';
import { smokeWorkflow } from '../support/smoke-workflow';
import { quietTemporalRuntime } from '../support/temporal-runtime';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates';

const account = {
  name: 'acme',
  platform: {
    baseUrl: 'https://platform.example/v1.1/voipstudio',
    credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
  },
};

describe('Temporal through nginx with TLS and a required client certificate', () => {
  let temporal: RunningTemporal;
  let mtls: RunningNginx;
  let keyed: RunningNginx;
  let certs: TestCertificates;

  /** The connection settings as a user writes them in the config file. */
  const settings = (address: string, temporalBlock: Record<string, unknown>): TemporalConnectionSettings => {
    const config = parseTestConfig({ accounts: [account], temporal: { address, ...temporalBlock } });
    return { ...config.temporal, address };
  };

  beforeAll(async () => {
    quietTemporalRuntime();
    certs = makeTestCertificates();
    temporal = await startTemporalDevServer();
    mtls = await startNginxGrpcTls({
      upstream: temporal.address,
      serverCert: certs.server.cert,
      serverKey: certs.server.key,
      clientCa: certs.caCert,
    });
    keyed = await startNginxGrpcTls({
      upstream: temporal.address,
      serverCert: certs.server.cert,
      serverKey: certs.server.key,
      apiKey: 'the-right-api-key',
    });
  }, 120_000);

  afterAll(async () => {
    await mtls?.stop();
    await keyed?.stop();
    await temporal?.stop();
  });

  it('runs a workflow with a worker and a client that present the client certificate', async () => {
    const s = settings(mtls.address, {
      namespace: temporal.namespace,
      // Files for the worker, PEM text for the key: both forms are accepted.
      tls: {
        serverCa: certs.caCert,
        serverName: certs.serverName,
        clientCert: certs.client.cert,
        clientKey: certs.pem(certs.client.key),
      },
    });
    const workerConnection = await connectTemporalWorker(s);
    const connection = await connectTemporalClient(s);
    const taskQueue = `tls-${process.pid}`;
    try {
      const worker = await Worker.create({
        connection: workerConnection,
        namespace: s.namespace,
        taskQueue,
        workflowsPath: require.resolve('../support/smoke-workflow'),
        activities: createSmokeActivities(),
      });
      const client = new Client({ connection, namespace: s.namespace });
      const result = await worker.runUntil(
        client.workflow.execute(smokeWorkflow, {
          taskQueue,
          workflowId: `tls-${Date.now()}`,
          args: [{ callId: 7 }],
        }),
      );
      expect(result).toBe(`workflow saw: call 7 handled by pid ${process.pid}`);
    } finally {
      await connection.close();
      await workerConnection.close();
    }
  }, 60_000);

  it('refuses a worker and a client without a client certificate, naming temporal.tls.clientCert', async () => {
    const s = settings(mtls.address, {
      namespace: temporal.namespace,
      tls: { serverCa: certs.caCert, serverName: certs.serverName },
    });
    await expect(connectTemporalWorker(s)).rejects.toMatchObject({
      name: 'TemporalConnectionError',
      setting: 'temporal.tls.clientCert',
      message: expect.stringMatching(/requires a client certificate/),
    });
    await expect(connectTemporalClient(s)).rejects.toMatchObject({ setting: 'temporal.tls.clientCert' });
  }, 60_000);

  it('refuses a server certificate signed by another CA, naming temporal.tls.serverCa', async () => {
    const s = settings(mtls.address, {
      namespace: temporal.namespace,
      tls: {
        serverCa: certs.otherCaCert,
        serverName: certs.serverName,
        clientCert: certs.client.cert,
        clientKey: certs.client.key,
      },
    });
    await expect(connectTemporalWorker(s)).rejects.toMatchObject({
      setting: 'temporal.tls.serverCa',
      message: expect.stringMatching(/not signed by the configured CA/),
    });
    await expect(connectTemporalClient(s, { connectTimeoutMs: 2000 })).rejects.toMatchObject({
      setting: 'temporal.tls.serverCa',
    });
  }, 60_000);

  it('says the server speaks TLS when temporal.tls is missing', async () => {
    const s = settings(mtls.address, { namespace: temporal.namespace });
    await expect(connectTemporalWorker(s)).rejects.toMatchObject({ setting: 'temporal.tls' });
    await expect(connectTemporalClient(s, { connectTimeoutMs: 2000 })).rejects.toMatchObject({
      setting: 'temporal.tls',
      message: expect.stringMatching(/speak TLS/),
    });
  }, 60_000);

  it('names temporal.namespace when the namespace does not exist', async () => {
    const s = settings(mtls.address, {
      namespace: 'no-such-namespace',
      tls: {
        serverCa: certs.caCert,
        serverName: certs.serverName,
        clientCert: certs.client.cert,
        clientKey: certs.client.key,
      },
    });
    await expect(connectTemporalClient(s)).rejects.toMatchObject({ setting: 'temporal.namespace' });
    await expect(connectTemporalWorker(s)).rejects.toMatchObject({ setting: 'temporal.namespace' });
  }, 60_000);

  it('sends the API key as a bearer token, and names temporal.apiKey when it is refused', async () => {
    const tls = { serverCa: certs.caCert, serverName: certs.serverName };
    const good = settings(keyed.address, { namespace: temporal.namespace, tls, apiKey: 'the-right-api-key' });
    const connection = await connectTemporalClient(good);
    await connection.close();
    const worker = await connectTemporalWorker(good);
    await worker.close();
    const bad = settings(keyed.address, { namespace: temporal.namespace, tls, apiKey: 'a-wrong-api-key' });
    for (const connect of [connectTemporalClient, connectTemporalWorker]) {
      const err = (await connect(bad).then(
        () => undefined,
        (e: unknown) => e,
      )) as Error & { setting: string };
      expect(err.setting).toBe('temporal.apiKey');
      expect(err.message).toMatch(/API key was refused/);
      expect(err.message).not.toContain('a-wrong-api-key');
    }
  }, 60_000);
});
