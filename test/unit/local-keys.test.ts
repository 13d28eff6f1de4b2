import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporalConfigSchema } from '../../config/temporal';
import { LOCAL_KEY_ID, localEncryption } from '../../local/local-keys';
import { payloadCodecFromConfig, workflowIdKey } from '../../lib/encryption-keys';

describe('local stack encryption keys', () => {
  it('generates 0600 key files on first start and keeps them on the next', () => {
    const dir = mkdtempSync(join(tmpdir(), 'callsync-keys-'));
    const first = localEncryption(dir);
    expect(first.activeKeyId).toBe(LOCAL_KEY_ID);
    const keyFile = first.keys[0]!.keyFile!;
    const key = readFileSync(keyFile, 'utf8');
    expect(Buffer.from(key.trim(), 'base64')).toHaveLength(32);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const again = localEncryption(dir);
    expect(readFileSync(again.keys[0]!.keyFile!, 'utf8')).toBe(key);
    expect(readFileSync(again.idKeyFile!, 'utf8')).toBe(readFileSync(first.idKeyFile!, 'utf8'));
    // The block is valid config and builds the codec and the id key.
    const temporal = temporalConfigSchema.parse({ encryption: again });
    expect(payloadCodecFromConfig(temporal)?.activeKeyId).toBe(LOCAL_KEY_ID);
    expect(workflowIdKey(temporal)).toHaveLength(32);
  });
});
