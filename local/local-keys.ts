// The local stack's Temporal encryption: a payload key and a workflow-id key generated under the
// data directory on first start and kept (histories written with them stay readable across
// restarts). Files are 0600; their content never goes to logs or the stack file (only their paths).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TemporalEncryptionConfig } from '../config/temporal-encryption';

/** Id of the generated payload key. */
export const LOCAL_KEY_ID = 'local-1';

function keepKey(path: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8').trim() !== '') return;
  // Only one stack runs per data directory (claimDataDir), so nothing races this write.
  writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'w' });
}

/** Creates the keys under `<dataDir>/keys/` when missing; returns the encryption block naming their files. */
export function localEncryption(dataDir: string): TemporalEncryptionConfig {
  const dir = resolve(join(dataDir, 'keys'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyFile = join(dir, 'temporal-payload.key');
  const idKeyFile = join(dir, 'workflow-id.key');
  keepKey(keyFile);
  keepKey(idKeyFile);
  return { keys: [{ id: LOCAL_KEY_ID, keyFile }], activeKeyId: LOCAL_KEY_ID, idKeyFile };
}

/** The dashboard's password file under `<dataDir>/keys/`, created (0600, random) when missing. */
export function localDashboardPasswordFile(dataDir: string): string {
  const dir = resolve(join(dataDir, 'keys'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'dashboard-password');
  keepKey(file);
  return file;
}

/** The codec endpoint's bearer token file under `<dataDir>/keys/`, created (0600, random) when missing. */
export function localCodecTokenFile(dataDir: string): string {
  const dir = resolve(join(dataDir, 'keys'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, 'codec-token');
  keepKey(file);
  return file;
}
