import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { configSchema, type CallsyncConfig, type CallsyncConfigInput } from './schema';
import { withSecretContext } from './secret';

/** A configuration that cannot be used; the message names every bad field and never echoes values. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`Invalid configuration (${source}):\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

/**
 * Parses a configuration object, or throws a ConfigError naming each bad field. Secret references
 * `{ "env": … }` read `env`; an inline secret is refused unless the input sets allowInlineSecrets.
 */
export function parseConfig(input: unknown, source = 'config', env: Env = process.env): CallsyncConfig {
  const allowInline =
    typeof input === 'object' &&
    input !== null &&
    (input as { allowInlineSecrets?: unknown }).allowInlineSecrets === true;
  const result = withSecretContext({ env, allowInline }, () => configSchema.safeParse(input));
  if (result.success) return Object.freeze(result.data);
  throw new ConfigError(source, result.error.issues.map(describeIssue));
}

/** One zod issue as `field.path: message` (never the value). */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  const field = path.replace(/^\./, '') || '(root)';
  return `${field}: ${issue.message}`;
}

type AccountInput = CallsyncConfigInput['accounts'][number];

/**
 * The platform account given by environment variables, if any: PLATFORM_BASE_URL with either
 * PLATFORM_USER_ID + PLATFORM_API_KEY or PLATFORM_EMAIL + PLATFORM_PASSWORD, named PLATFORM_ACCOUNT
 * (default `default`). The key or password stays a reference to its variable: not inline in a file.
 */
export function accountFromEnv(env: Env): AccountInput | undefined {
  const baseUrl = env.PLATFORM_BASE_URL;
  if (!baseUrl) return undefined;
  const credentials =
    env.PLATFORM_API_KEY !== undefined
      ? { type: 'apiKey' as const, userId: env.PLATFORM_USER_ID ?? '', apiKey: { env: 'PLATFORM_API_KEY' } }
      : {
          type: 'password' as const,
          email: env.PLATFORM_EMAIL ?? '',
          password: { env: 'PLATFORM_PASSWORD' },
        };
  return { name: env.PLATFORM_ACCOUNT ?? 'default', platform: { baseUrl, credentials } };
}

/** `accounts` with the environment's account merged in: the one of its name updated, or added. */
function withEnvAccount(accounts: unknown, fromEnv: AccountInput): unknown[] {
  const list = Array.isArray(accounts) ? [...(accounts as unknown[])] : [];
  const at = list.findIndex((a) => (a as { name?: unknown } | null)?.name === fromEnv.name);
  if (at < 0) return [...list, fromEnv];
  const own = list[at] as { platform?: object };
  list[at] = { ...own, platform: { ...own.platform, ...fromEnv.platform } };
  return list;
}

/**
 * The Temporal TLS settings given by TEMPORAL_TLS_CA, TEMPORAL_TLS_SERVER_NAME, TEMPORAL_TLS_CERT and
 * TEMPORAL_TLS_KEY (each a file path or PEM text), if any; the key as a reference to its variable.
 */
export function temporalTlsFromEnv(env: Env): Record<string, string | { env: string }> | undefined {
  const given = (name: string): boolean => env[name] !== undefined && env[name] !== '';
  const entries = Object.entries({
    serverCa: env.TEMPORAL_TLS_CA,
    serverName: env.TEMPORAL_TLS_SERVER_NAME,
    clientCert: env.TEMPORAL_TLS_CERT,
  }).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  const tls: Record<string, string | { env: string }> = Object.fromEntries(entries);
  if (given('TEMPORAL_TLS_KEY')) tls.clientKey = { env: 'TEMPORAL_TLS_KEY' };
  return Object.keys(tls).length > 0 ? tls : undefined;
}

/**
 * Reads the configuration: a JSON file (path from `file` or CALLSYNC_CONFIG) overlaid with the
 * environment (DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*,
 * CALLSYNC_DASHBOARD_PASSWORD, CALLSYNC_LOG_LEVEL, CALLSYNC_WORKER_HEALTH_PORT, PLATFORM_*: the
 * account PLATFORM_ACCOUNT names). `defaults` fills what neither gives (npm start passes the local
 * emulator's account this way). Secrets from these variables enter as `{ "env" }` references, which
 * read `env`, so they are never inline secrets.
 */
export function loadConfig(
  opts: { file?: string | undefined; env?: Env; defaults?: Partial<CallsyncConfigInput> } = {},
): CallsyncConfig {
  const env = opts.env ?? process.env;
  const file = opts.file ?? env.CALLSYNC_CONFIG;
  let fromFile: Partial<CallsyncConfigInput> = {};
  if (file) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8')) as Partial<CallsyncConfigInput>;
    } catch (err) {
      throw new ConfigError(file, [`cannot read JSON: ${(err as Error).message}`]);
    }
  }
  const merged: Record<string, unknown> = { ...opts.defaults, ...fromFile };
  const envAccount = accountFromEnv(env);
  if (envAccount) merged.accounts = withEnvAccount(merged.accounts, envAccount);
  const section = (key: string): Record<string, unknown> => ({ ...(merged[key] as object | undefined) });
  if (env.DATABASE_URL) merged.database = { ...section('database'), url: { env: 'DATABASE_URL' } };
  if (env.TEMPORAL_ADDRESS) merged.temporal = { ...section('temporal'), address: env.TEMPORAL_ADDRESS };
  if (env.TEMPORAL_NAMESPACE) merged.temporal = { ...section('temporal'), namespace: env.TEMPORAL_NAMESPACE };
  if (env.TEMPORAL_API_KEY) merged.temporal = { ...section('temporal'), apiKey: { env: 'TEMPORAL_API_KEY' } };
  const tlsFromEnv = temporalTlsFromEnv(env);
  if (tlsFromEnv) {
    const temporal = section('temporal');
    merged.temporal = { ...temporal, tls: { ...(temporal.tls as object | undefined), ...tlsFromEnv } };
  }
  // A compose variable (docker-compose 1.29 has no secrets from the environment): the shipped config
  // then holds no password, and the server still refuses a network interface without one.
  if (env.CALLSYNC_DASHBOARD_PASSWORD) {
    const server = section('server');
    const dashboard = {
      ...(server.dashboard as object | undefined),
      password: { env: 'CALLSYNC_DASHBOARD_PASSWORD' },
    };
    merged.server = { ...server, dashboard };
  }
  if (env.CALLSYNC_LOG_LEVEL) merged.logLevel = env.CALLSYNC_LOG_LEVEL;
  // The image's health check needs a port it knows; a number the schema then checks like the file's.
  if (env.CALLSYNC_WORKER_HEALTH_PORT)
    merged.worker = { ...section('worker'), healthPort: Number(env.CALLSYNC_WORKER_HEALTH_PORT) };
  return parseConfig(merged, file ?? 'environment', env);
}
