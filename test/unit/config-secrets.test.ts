// Secrets by reference (config/secret.ts): every secret field takes { env } or { file }, resolved
// while the config is parsed; an inline secret is refused unless allowInlineSecrets; problems name
// the field, never the value. These tests call parseConfig itself: strict, as production is.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, parseConfig } from '../../config/load';
import { hubspotConfigSchema } from '../../connectors/hubspot/config';

const dir = mkdtempSync(join(tmpdir(), 'callsync-secrets-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----';
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

/** Every secret field of the config, by path, with a value its rules accept. */
const SECRETS: Record<string, string> = {
  'accounts[0].platform.credentials.apiKey': 'platform-api-key-0',
  'accounts[0].webhookSecret': 'webhook-secret-0-abcdef',
  'accounts[0].crm.accessToken': 'sf-access-token-0',
  'accounts[0].crm.refreshToken': 'sf-refresh-token-0',
  'accounts[0].crm.oauth2.clientSecret': 'sf-client-secret-0',
  'accounts[0].overrides.reports.delivery.email.smtp.password': 'smtp-password-acme',
  'accounts[1].platform.credentials.password': 'platform-password-1',
  'database.url': 'postgres://callsync:db-password-0@db:5432/warehouse',
  'temporal.tls.clientKey': PEM,
  'temporal.apiKey': 'temporal-cloud-api-key-0',
  'temporal.encryption.keys[0].key': 'payload-key-0-base64',
  'temporal.encryption.idKey': 'workflow-id-key-0',
  'server.codec.token': 'codec-token-0-abcdefgh',
  'server.dashboard.password': 'dashboard-password-0',
  'metrics.token': 'metrics-token-0-abcdefg',
  'archive.s3.credentials.secretAccessKey': 's3-secret-access-key-0',
  'archive.s3.credentials.sessionToken': 's3-session-token-0',
  'crm.destination.accessToken': 'hubspot-access-token-0',
  'reports.delivery.email.smtp.password': 'smtp-password-global',
  'reports.delivery.google.credentials.serviceAccountJson': '{"sa":"reports"}',
  'warehouse.bigquery.credentials.serviceAccountJson': '{"sa":"bigquery"}',
  'transcription.google.credentials.serviceAccountJson': '{"sa":"speech"}',
  'erasure.hashKey': 'erasure-hash-key-0',
};

/** A config with every secret field given by `value(path)`. */
function everySecret(value: (path: string) => unknown): Record<string, unknown> {
  const v = value;
  const smtp = (path: string) => ({ host: 'smtp.example', user: 'reports', password: v(path) });
  return {
    accounts: [
      {
        name: 'acme',
        platform: {
          baseUrl: 'https://pbx.example/v1.1/voipstudio',
          credentials: { type: 'apiKey', userId: 7, apiKey: v('accounts[0].platform.credentials.apiKey') },
        },
        webhookSecret: v('accounts[0].webhookSecret'),
        crm: {
          type: 'salesforce',
          instanceUrl: 'https://acme.my.salesforce.com',
          accessToken: v('accounts[0].crm.accessToken'),
          refreshToken: v('accounts[0].crm.refreshToken'),
          oauth2: { clientId: 'client-id', clientSecret: v('accounts[0].crm.oauth2.clientSecret') },
        },
        overrides: {
          reports: {
            delivery: { email: { smtp: smtp('accounts[0].overrides.reports.delivery.email.smtp.password') } },
          },
        },
      },
      {
        name: 'globex',
        platform: {
          baseUrl: 'https://pbx.example/v1.1/voipstudio',
          credentials: {
            type: 'password',
            email: 'ops@globex.example',
            password: v('accounts[1].platform.credentials.password'),
          },
        },
      },
    ],
    database: { url: v('database.url') },
    temporal: {
      tls: { clientCert: CERT, clientKey: v('temporal.tls.clientKey') },
      apiKey: v('temporal.apiKey'),
      encryption: {
        keys: [{ id: 'k1', key: v('temporal.encryption.keys[0].key') }],
        activeKeyId: 'k1',
        idKey: v('temporal.encryption.idKey'),
      },
    },
    server: {
      codec: { token: v('server.codec.token') },
      dashboard: { password: v('server.dashboard.password') },
    },
    metrics: { token: v('metrics.token') },
    archive: {
      s3: {
        bucket: 'callsync-archive',
        credentials: {
          accessKeyId: 'AKIAEXAMPLE',
          secretAccessKey: v('archive.s3.credentials.secretAccessKey'),
          sessionToken: v('archive.s3.credentials.sessionToken'),
        },
      },
    },
    crm: { destination: { type: 'hubspot', accessToken: v('crm.destination.accessToken') } },
    reports: {
      delivery: {
        email: { smtp: smtp('reports.delivery.email.smtp.password') },
        google: {
          credentials: { serviceAccountJson: v('reports.delivery.google.credentials.serviceAccountJson') },
        },
      },
    },
    warehouse: {
      bigquery: {
        projectId: 'p',
        dataset: 'd',
        credentials: { serviceAccountJson: v('warehouse.bigquery.credentials.serviceAccountJson') },
      },
    },
    transcription: {
      google: {
        monthlyCapMinutes: 10,
        credentials: { serviceAccountJson: v('transcription.google.credentials.serviceAccountJson') },
      },
    },
    erasure: { hashKey: v('erasure.hashKey') },
  };
}

/** The variable name standing for a path, e.g. SECRET_ACCOUNTS_0_WEBHOOKSECRET. */
const envName = (path: string) => `SECRET_${path.replace(/\W+/g, '_').toUpperCase()}`;

/** The ConfigError's problems (fails the test when the input parses). */
function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('the config parsed');
}

const get = (config: unknown, path: string): unknown =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], config);

describe('secrets by reference', () => {
  it('resolves every secret field from { env }, reading the env given to loadConfig', () => {
    const env = Object.fromEntries(Object.entries(SECRETS).map(([path, value]) => [envName(path), value]));
    const configFile = file('refs.json', JSON.stringify(everySecret((path) => ({ env: envName(path) }))));
    const config = loadConfig({ file: configFile, env });
    for (const [path, value] of Object.entries(SECRETS))
      expect([path, get(config, path)]).toEqual([path, value]);
  });

  it('reads { file } whole, trimming the one trailing newline secret files end with', () => {
    const input = (webhookSecret: unknown) => ({
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'https://pbx.example/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 7, apiKey: { file: file('key', 'api-key-1\n') } },
          },
          webhookSecret,
        },
      ],
    });
    const config = parseConfig(input({ file: file('lf', 'webhook-secret-1-abcdef\n') }));
    expect(config.accounts[0]?.platform.credentials).toMatchObject({ apiKey: 'api-key-1' });
    expect(config.accounts[0]?.webhookSecret).toBe('webhook-secret-1-abcdef');
    expect(
      parseConfig(input({ file: file('crlf', 'webhook-secret-2-abcdef\r\n') })).accounts[0]?.webhookSecret,
    ).toBe('webhook-secret-2-abcdef');
    // Only one: a value that itself ends with a newline keeps it.
    expect(
      parseConfig(input({ file: file('two', 'webhook-secret-3-abcdef\n\n') })).accounts[0]?.webhookSecret,
    ).toBe('webhook-secret-3-abcdef\n');
    // The field's own rules hold for the value the file gives.
    expect(problemsOf(() => parseConfig(input({ file: file('short', 'short\n') })))).toEqual([
      'accounts[0].webhookSecret: must be at least 16 characters',
    ]);
  });

  it('names the field and the reference of a missing or empty variable or file, never a value', () => {
    const destination = (accessToken: unknown) => ({
      allowInlineSecrets: true,
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'https://pbx.example/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 7, apiKey: 'inline-key-in-a-local-setup' },
          },
        },
      ],
      crm: { destination: { type: 'hubspot', accessToken } },
    });
    // process.env is not read when an env is given.
    process.env.HUBSPOT_TOKEN = 'from-process-env';
    try {
      expect(problemsOf(() => parseConfig(destination({ env: 'HUBSPOT_TOKEN' }), 'config', {}))).toEqual([
        'crm.destination.accessToken: environment variable HUBSPOT_TOKEN is not set',
      ]);
    } finally {
      delete process.env.HUBSPOT_TOKEN;
    }
    expect(
      problemsOf(() => parseConfig(destination({ env: 'HUBSPOT_TOKEN' }), 'config', { HUBSPOT_TOKEN: '' })),
    ).toEqual(['crm.destination.accessToken: environment variable HUBSPOT_TOKEN is empty']);
    const missing = join(dir, 'no-such-secret');
    expect(problemsOf(() => parseConfig(destination({ file: missing })))).toEqual([
      `crm.destination.accessToken: cannot read ${missing} (ENOENT)`,
    ]);
    const empty = file('empty', '\n');
    expect(problemsOf(() => parseConfig(destination({ file: empty })))).toEqual([
      `crm.destination.accessToken: ${empty} is empty`,
    ]);
    expect(problemsOf(() => parseConfig(destination({ env: 'HUBSPOT_TOKEN', file: empty })))).toEqual([
      'crm.destination.accessToken: must be a string, { "env": "NAME" } or { "file": "/path" }',
    ]);
  });

  it('refuses every inline secret without allowInlineSecrets, naming each field and no value', () => {
    const input = everySecret((path) => SECRETS[path]);
    let error: unknown;
    try {
      parseConfig(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const refused = (error as ConfigError).problems;
    expect([...refused].sort()).toEqual(
      Object.keys(SECRETS)
        .map(
          (path) =>
            `${path}: an inline secret; give { "env": "NAME" } or { "file": "/path" }, or set allowInlineSecrets for a local setup`,
        )
        .sort(),
    );
    for (const value of Object.values(SECRETS)) expect((error as Error).message).not.toContain(value);
    // Accepted with the flag, as written.
    const config = parseConfig({ ...input, allowInlineSecrets: true });
    for (const [path, value] of Object.entries(SECRETS))
      expect([path, get(config, path)]).toEqual([path, value]);
  });

  it('takes a database URL without a password, a key file path and an access key id inline: they are not secrets', () => {
    const config = parseConfig(
      {
        accounts: [
          {
            name: 'acme',
            platform: {
              baseUrl: 'https://pbx.example/v1.1/voipstudio',
              credentials: { type: 'apiKey', userId: 7, apiKey: { env: 'KEY' } },
            },
          },
        ],
        database: { url: 'postgres://callsync@db:5432/warehouse?sslmode=verify-full' },
        temporal: { tls: { clientCert: '/etc/tls/client.pem', clientKey: '/etc/tls/client.key' } },
        archive: {
          s3: {
            bucket: 'callsync-archive',
            credentials: { accessKeyId: 'AKIA', secretAccessKey: { env: 'S3' } },
          },
        },
      },
      'config',
      { KEY: 'k', S3: 's' },
    );
    expect(config.database.url).toBe('postgres://callsync@db:5432/warehouse?sslmode=verify-full');
    expect(config.temporal.tls?.clientKey).toBe('/etc/tls/client.key');
    expect(config.archive.s3?.credentials).toEqual({ accessKeyId: 'AKIA', secretAccessKey: 's' });
  });

  it('accepts the secrets environment overrides give, and updates the PLATFORM_ACCOUNT account keeping the others', () => {
    const file = {
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'https://old.example/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 7, apiKey: { env: 'ACME_KEY' } },
            requestsPerSecond: 3,
          },
        },
        {
          name: 'globex',
          platform: {
            baseUrl: 'https://pbx.example/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 8, apiKey: { env: 'GLOBEX_KEY' } },
          },
        },
      ],
    };
    const env = {
      CALLSYNC_CONFIG: join(dir, 'accounts.json'),
      ACME_KEY: 'acme-key',
      GLOBEX_KEY: 'globex-key',
      PLATFORM_ACCOUNT: 'acme',
      PLATFORM_BASE_URL: 'https://new.example/v1.1/voipstudio',
      PLATFORM_USER_ID: '9',
      PLATFORM_API_KEY: 'env-platform-key',
      DATABASE_URL: 'postgres://callsync:db-password@db/warehouse',
      TEMPORAL_API_KEY: 'env-temporal-key',
      TEMPORAL_TLS_CERT: CERT,
      TEMPORAL_TLS_KEY: PEM,
      CALLSYNC_DASHBOARD_PASSWORD: 'env-dashboard-password',
    };
    writeFileSync(env.CALLSYNC_CONFIG, JSON.stringify(file));
    const config = loadConfig({ env });
    expect(config.accounts.map((a) => [a.name, a.platform.baseUrl, a.platform.credentials])).toEqual([
      [
        'acme',
        'https://new.example/v1.1/voipstudio',
        { type: 'apiKey', userId: '9', apiKey: 'env-platform-key' },
      ],
      ['globex', 'https://pbx.example/v1.1/voipstudio', { type: 'apiKey', userId: 8, apiKey: 'globex-key' }],
    ]);
    expect(config.accounts[0]?.platform.requestsPerSecond).toBe(3);
    expect(config.database.url).toBe(env.DATABASE_URL);
    expect(config.temporal.apiKey).toBe(env.TEMPORAL_API_KEY);
    expect(config.temporal.tls?.clientKey).toBe(PEM);
    expect(config.server.dashboard.password).toBe(env.CALLSYNC_DASHBOARD_PASSWORD);
    // Without PLATFORM_ACCOUNT: an account named `default` is added beside the file's.
    const { PLATFORM_ACCOUNT: _named, ...unnamed } = env;
    expect(loadConfig({ env: unnamed }).accounts.map((a) => a.name)).toEqual(['acme', 'globex', 'default']);
    // A missing password names its variable, not an empty string's length.
    const { PLATFORM_API_KEY: _key, ...noKey } = unnamed;
    expect(problemsOf(() => loadConfig({ env: { ...noKey, PLATFORM_EMAIL: 'ops@example.com' } }))).toEqual([
      'accounts[2].platform.credentials.password: environment variable PLATFORM_PASSWORD is not set',
    ]);
  });

  it('a connector schema parsed on its own (outside parseConfig) takes inline values', () => {
    expect(hubspotConfigSchema.parse({ type: 'hubspot', accessToken: 'pat-inline' }).accessToken).toBe(
      'pat-inline',
    );
  });
});
