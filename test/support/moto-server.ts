// The real moto server (PyPI `moto[server]`, pinned) as the tests' S3: installed into .tools/ by
// scripts/pip-tool.sh on first use, started on a free port, stopped with the test.
import { execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { s3ClientConfig } from '../../connectors/object-store/s3';
import { stopChild } from '../../lib/child-process';
import { freePort } from '../../lib/free-port';
import type { S3Config } from '../../connectors/object-store/s3-config';

export const MOTO_REQUIREMENT = 'moto[server]==5.2.5';

export interface RunningMoto {
  endpoint: string;
  /** An archive.s3 config for a new bucket of that name. */
  s3Config(bucket: string, extra?: Partial<S3Config>): S3Config;
  createBucket(bucket: string): Promise<void>;
  stop(): Promise<void>;
}

const root = resolve(__dirname, '../..');

/** The moto_server binary, installed into .tools/moto-venv when missing. */
export async function motoServerPath(): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(
      'bash',
      [resolve(root, 'scripts/pip-tool.sh'), 'moto', MOTO_REQUIREMENT, 'moto_server'],
      { timeout: 600_000 },
    );
    return stdout.trim().split('\n').at(-1) as string;
  } catch (err) {
    throw new Error(
      `S3 tests need moto's server (PyPI ${MOTO_REQUIREMENT}), installed by scripts/pip-tool.sh with python3 and pip; it failed: ${String(err)}`,
      { cause: err },
    );
  }
}

/** Starts moto's server on a free port and waits until it answers. */
export async function startMoto(): Promise<RunningMoto> {
  const bin = await motoServerPath();
  const port = await freePort();
  const child = spawn(bin, ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with ${child.exitCode}: ${stderr}`);
    const up = await fetch(`${endpoint}/moto-api/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stopChild(child, 2000);
      throw new Error(`moto_server did not answer within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const s3Config = (bucket: string, extra: Partial<S3Config> = {}): S3Config => ({
    bucket,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    prefix: '',
    credentials: { accessKeyId: 'test-key-id', secretAccessKey: 'test-secret' },
    partSizeMb: 5,
    partsAtOnce: 2,
    ...extra,
  });
  return {
    endpoint,
    s3Config,
    async createBucket(bucket) {
      const client = new S3Client(s3ClientConfig(s3Config(bucket)));
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      client.destroy();
    },
    stop: () => stopChild(child, 5000),
  };
}
