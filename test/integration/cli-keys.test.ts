// `callsync keys generate` writes a key only its owner can read and never overwrites one without
// --force; a worker or server given no keys refuses to start, naming temporal.encryption.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, runCli } from './cli-process';

jest.setTimeout(120_000);

describe('callsync keys generate, and keys required at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'callsync-keys-'));
  const env = cliEnv();
  const keyFile = join(dir, 'keys', 'temporal-payload.key');

  it('writes a 0600 key file and prints the temporal.encryption block that uses it', () => {
    const run = runCli(['keys', 'generate', '--out', keyFile, '--id', 'prod-1'], env);
    expect(run.stderr).toContain(`wrote a new key to ${keyFile} (mode 0600)`);
    expect(run.status).toBe(0);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(JSON.parse(run.stdout.trim())).toEqual({
      temporal: { encryption: { keys: [{ id: 'prod-1', keyFile }], activeKeyId: 'prod-1' } },
    });
  });

  it('refuses to overwrite a key without --force, and replaces it (still 0600) with it', () => {
    const before = readFileSync(keyFile, 'utf8');
    const again = runCli(['keys', 'generate', '--out', keyFile], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists: a key is not overwritten.*pass --force/);
    expect(readFileSync(keyFile, 'utf8')).toBe(before);
    const forced = runCli(['keys', 'generate', '--out', keyFile, '--force'], env);
    expect(forced.status).toBe(0);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(before);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('a worker or a server without temporal.encryption refuses to start, naming the setting', () => {
    const config = join(dir, 'no-keys.json');
    writeFileSync(
      config,
      JSON.stringify({
        allowInlineSecrets: true,
        accounts: [
          {
            name: 'acme',
            platform: {
              baseUrl: 'http://127.0.0.1:9/v1.1/voipstudio',
              credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
            },
            webhookSecret: 'a-webhook-secret-of-24-chars',
          },
        ],
        temporal: { address: '127.0.0.1:9' },
      }),
    );
    for (const command of ['worker', 'server']) {
      const run = runCli(['--config', config, '--data-dir', join(dir, 'data'), command], env);
      expect({ command, status: run.status }).toEqual({ command, status: 1 });
      expect(run.stderr).toContain('temporal.encryption: is not set');
      expect(run.stderr).toContain('callsync keys generate');
      expect(run.stderr).toContain('"off"');
    }
  });
});
