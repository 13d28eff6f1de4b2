import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { configSchema, type CallsyncConfig, type CallsyncConfigInput } from './schema';

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

/** Parses a configuration object, or throws a ConfigError naming each bad field. */
export function parseConfig(input: unknown, source = 'config'): CallsyncConfig {
  const result = configSchema.safeParse(input);
  if (result.success) return Object.freeze(result.data);
  throw new ConfigError(source, result.error.issues.map(describeIssue));
}

/** One zod issue as `field.path: message` (never the value). */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  const field = path.replace(/^\./, '') || '(root)';
  return `${field}: ${issue.message}`;
}

type Env = Record<string, string | undefined>;

/**
 * The platform account given by environment variables, if any: PLATFORM_BASE_URL with either
 * PLATFORM_USER_ID + PLATFORM_API_KEY or PLATFORM_EMAIL + PLATFORM_PASSWORD.
 */
export function accountFromEnv(env: Env): CallsyncConfigInput['accounts'][number] | undefined {
  const baseUrl = env.PLATFORM_BASE_URL;
  if (!baseUrl) return undefined;
  const credentials =
    env.PLATFORM_API_KEY !== undefined
      ? { type: 'apiKey' as const, userId: env.PLATFORM_USER_ID ?? '', apiKey: env.PLATFORM_API_KEY }
      : { type: 'password' as const, email: env.PLATFORM_EMAIL ?? '', password: env.PLATFORM_PASSWORD ?? '' };
  return { name: env.PLATFORM_ACCOUNT ?? 'default', platform: { baseUrl, credentials } };
}

/**
 * The Temporal TLS settings given by TEMPORAL_TLS_CA, TEMPORAL_TLS_SERVER_NAME, TEMPORAL_TLS_CERT and
 * TEMPORAL_TLS_KEY (each a file path or PEM text), if any.
 */
export function temporalTlsFromEnv(env: Env): Record<string, string> | undefined {
  const entries = Object.entries({
    serverCa: env.TEMPORAL_TLS_CA,
    serverName: env.TEMPORAL_TLS_SERVER_NAME,
    clientCert: env.TEMPORAL_TLS_CERT,
    clientKey: env.TEMPORAL_TLS_KEY,
  }).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

/**
 * Reads the configuration: a JSON file (path from `file` or CALLSYNC_CONFIG) overlaid with the
 * environment (DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*,
 * CALLSYNC_DASHBOARD_PASSWORD, CALLSYNC_LOG_LEVEL, CALLSYNC_WORKER_HEALTH_PORT, PLATFORM_*).
 * `defaults` fills what neither gives (npm start passes the local emulator's account this way).
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
  if (envAccount) merged.accounts = [envAccount];
  const section = (key: string): Record<string, unknown> => ({ ...(merged[key] as object | undefined) });
  if (env.DATABASE_URL) merged.database = { ...section('database'), url: env.DATABASE_URL };
  if (env.TEMPORAL_ADDRESS) merged.temporal = { ...section('temporal'), address: env.TEMPORAL_ADDRESS };
  if (env.TEMPORAL_NAMESPACE) merged.temporal = { ...section('temporal'), namespace: env.TEMPORAL_NAMESPACE };
  if (env.TEMPORAL_API_KEY) merged.temporal = { ...section('temporal'), apiKey: env.TEMPORAL_API_KEY };
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
      password: env.CALLSYNC_DASHBOARD_PASSWORD,
    };
    merged.server = { ...server, dashboard };
  }
  if (env.CALLSYNC_LOG_LEVEL) merged.logLevel = env.CALLSYNC_LOG_LEVEL;
  // The image's health check needs a port it knows; a number the schema then checks like the file's.
  if (env.CALLSYNC_WORKER_HEALTH_PORT)
    merged.worker = { ...section('worker'), healthPort: Number(env.CALLSYNC_WORKER_HEALTH_PORT) };
  return parseConfig(merged, file ?? 'environment');
}
