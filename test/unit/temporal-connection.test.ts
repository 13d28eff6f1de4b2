import { parseTestConfig } from '../support/test-config';
import {
  clientConnectionOptions,
  explainTemporalError,
  readPem,
  temporalTls,
  workerConnectionOptions,
  type TemporalConnectionSettings,
} from '../../runtime/temporal-connection';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nsecret-key-material\n-----END PRIVATE KEY-----\n';
const account = {
  name: 'acme',
  platform: {
    baseUrl: 'https://p.example/v1.1/voipstudio',
    credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
  },
};
const base: TemporalConnectionSettings = { address: 'temporal.example:7233', namespace: 'prod' };
const files: Record<string, string> = { '/etc/ca.pem': PEM, '/etc/plain.txt': 'hello' };
const read = ((path: string) => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return text;
}) as unknown as typeof import('node:fs').readFileSync;

describe('temporal config block', () => {
  it('accepts TLS files or PEM and an API key, and refuses a certificate without its key', () => {
    const config = parseTestConfig({
      accounts: [account],
      temporal: {
        address: 'a:1',
        tls: { serverCa: '/etc/ca.pem', clientCert: PEM, clientKey: KEY },
        apiKey: 'x',
      },
    });
    expect(config.temporal.tls?.serverCa).toBe('/etc/ca.pem');
    expect(config.temporal.apiKey).toBe('x');
    expect(() => parseTestConfig({ accounts: [account], temporal: { tls: { clientCert: PEM } } })).toThrow(
      /temporal\.tls\.clientCert: clientCert and clientKey go together/,
    );
  });
});

describe('readPem', () => {
  it('takes PEM text as it is and reads a file otherwise', () => {
    expect(readPem(PEM, 'temporal.tls.serverCa', read).toString()).toBe(PEM);
    expect(readPem('/etc/ca.pem', 'temporal.tls.serverCa', read).toString()).toBe(PEM);
  });

  it('names the setting and the path for a missing or non-PEM file', () => {
    expect(() => readPem('/etc/missing.pem', 'temporal.tls.clientKey', read)).toThrow(
      'temporal.tls.clientKey: cannot read /etc/missing.pem (ENOENT)',
    );
    expect(() => readPem('/etc/plain.txt', 'temporal.tls.serverCa', read)).toThrow(/not a PEM file/);
  });
});

describe('connection options', () => {
  it('is plaintext without tls or apiKey', () => {
    const client = clientConnectionOptions(base);
    expect(client).toMatchObject({ address: base.address });
    expect(client).not.toHaveProperty('tls');
    expect(workerConnectionOptions(base)).toEqual({ address: base.address });
  });

  it('bounds the client reconnect backoff, so a restarted Temporal is reached again within seconds', () => {
    expect(clientConnectionOptions(base).channelArgs).toEqual({
      'grpc.initial_reconnect_backoff_ms': 500,
      'grpc.max_reconnect_backoff_ms': 5_000,
    });
  });

  it('maps the tls block onto the SDK TLS options and passes the API key', () => {
    const s = {
      ...base,
      tls: { serverCa: PEM, serverName: 'temporal.internal', clientCert: PEM, clientKey: KEY },
      apiKey: 'k1',
    };
    const tls = temporalTls(s, read);
    expect(tls?.serverNameOverride).toBe('temporal.internal');
    expect(tls?.serverRootCACertificate?.toString()).toBe(PEM);
    expect(tls?.clientCertPair?.key.toString()).toBe(KEY);
    expect(clientConnectionOptions(s).apiKey).toBe('k1');
    expect(workerConnectionOptions(s).apiKey).toBe('k1');
    // An empty block still means TLS (with the system's CAs).
    expect(temporalTls({ ...base, tls: {} }, read)).toEqual({});
  });
});

describe('explainTemporalError', () => {
  const mtls = { ...base, tls: { serverCa: PEM, clientCert: PEM, clientKey: KEY } };
  it.each([
    [new Error('Namespace prod is not found.'), base, 'temporal.namespace'],
    [
      Object.assign(new Error('16 UNAUTHENTICATED: API key refused'), { code: 16 }),
      { ...base, apiKey: 'k' },
      'temporal.apiKey',
    ],
    [new Error('invalid peer certificate: UnknownIssuer'), mtls, 'temporal.tls.serverCa'],
    [new Error('14 UNAVAILABLE: unable to verify the first certificate'), mtls, 'temporal.tls.serverCa'],
    [new Error('invalid peer certificate: NotValidForName'), mtls, 'temporal.tls.serverName'],
    [
      new Error('13 INTERNAL: Received HTTP status code 400'),
      { ...base, tls: { serverCa: PEM } },
      'temporal.tls.clientCert',
    ],
    [new Error('14 UNAVAILABLE: No connection established'), base, 'temporal.address'],
  ])('%s → %s', (err, settings, setting) => {
    const explained = explainTemporalError(err, settings);
    expect(explained).toMatchObject({ name: 'TemporalConnectionError', setting });
    expect(explained.message).toContain(settings.address);
    expect(explained.message).not.toContain('secret-key-material');
  });
});
