// The configuration of the local stack: what it sets when the config file does not (state under the
// data directory), and the keys, password and token it generates into files there (never printed)
// when none are configured.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallsyncConfig, CallsyncConfigInput } from '../config/schema';
import type { TemporalEncryptionConfig } from '../config/temporal-encryption';
import { localCodecTokenFile, localDashboardPasswordFile, localEncryption } from './local-keys';

/** How much recording audio the local stack archives by default (archive.maxAge): the emulator's last day, about 35 MB. */
export const LOCAL_ARCHIVE_MAX_AGE = '1d';

/** The config file as written (to see whether it names accounts); empty when missing or unreadable. */
export function readJson(file: string | undefined): Partial<CallsyncConfigInput> {
  if (!file || !existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<CallsyncConfigInput>;
  } catch {
    return {}; // loadConfig reports the unreadable file with its reason
  }
}

/** Defaults of the local stack: the embedded PostgreSQL, the audio archive and report files under `dataDir`. */
export function localDefaults(dataDir: string): Partial<CallsyncConfigInput> {
  return {
    // A local setup: the emulator's account below, and a config file's own, may hold secrets inline.
    allowInlineSecrets: true,
    database: { embeddedDir: join(dataDir, 'postgres') },
    // The emulator's 183 days of recordings are about 8 GB of audio; locally, the last day's (35 MB) do.
    archive: { dir: join(dataDir, 'archive'), maxAge: LOCAL_ARCHIVE_MAX_AGE },
    // Report files and, with no SMTP configured, report e-mails (.eml) stay under the data directory.
    reports: {
      directory: join(dataDir, 'reports'),
      delivery: { email: { outboxDir: join(dataDir, 'outbox') } },
    },
  };
}

/**
 * The loaded config with what the local stack generates when it is not configured: encryption keys,
 * the dashboard's password file, the codec endpoint's token file, and a /metrics port of its own.
 * `generatedEncryption` is the generated `temporal.encryption` (key file paths only), if any.
 */
export function withLocalSecrets(
  loaded: CallsyncConfig,
  dataDir: string,
): { config: CallsyncConfig; generatedEncryption: TemporalEncryptionConfig | undefined } {
  let config = loaded;
  // Payloads in Temporal are encrypted locally too, with keys kept under the data directory.
  const generatedEncryption = config.temporal.encryption ? undefined : localEncryption(dataDir);
  if (generatedEncryption)
    config = { ...config, temporal: { ...config.temporal, encryption: generatedEncryption } };
  // The dashboard's login: a generated password in a file (never printed) unless one is configured.
  const dashboardConfig = config.server.dashboard;
  if (dashboardConfig.enabled && !dashboardConfig.password && !dashboardConfig.passwordFile) {
    const passwordFile = localDashboardPasswordFile(dataDir);
    config = { ...config, server: { ...config.server, dashboard: { ...dashboardConfig, passwordFile } } };
  }
  // The codec endpoint's bearer token: generated in a file (never printed) unless one is configured.
  const codecConfig = config.server.codec;
  if (!codecConfig.token && !codecConfig.tokenFile) {
    const tokenFile = localCodecTokenFile(dataDir);
    config = { ...config, server: { ...config.server, codec: { ...codecConfig, tokenFile } } };
  }
  // /metrics on a port of its own (a free one, on loopback) unless one or a token is configured.
  if (config.metrics.serverPort === undefined && !config.metrics.token && !config.metrics.tokenFile) {
    config = { ...config, metrics: { ...config.metrics, serverPort: 0 } };
  }
  return { config, generatedEncryption };
}
