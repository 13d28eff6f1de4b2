// `callsync keys generate --out <file>`: writes a new random key (base64 of 32 bytes) to a file
// only its owner can read (0600), and prints the `temporal.encryption` block that uses it. It never
// overwrites a key without --force: histories encrypted with a lost key cannot be read again.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';

const optionsSchema = z.object({
  out: z.string().min(1),
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dot, underscore or dash')
    .optional(),
  force: z.boolean().optional(),
});

/** Writes a fresh key to `file` (0600); refuses to replace an existing file unless `force`. */
export function writeKeyFile(file: string, force = false): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: force ? 'w' : 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new Error(
        `${file} already exists: a key is not overwritten (histories encrypted with it would be unreadable); pass --force to replace it`,
        { cause: err },
      );
    }
    throw err;
  }
  // An existing file keeps its mode when overwritten: make sure it is the owner's only.
  chmodSync(file, 0o600);
}

/** The config block that uses a generated key file as the only (active) payload key. */
export function encryptionBlockFor(file: string, id: string): object {
  return { temporal: { encryption: { keys: [{ id, keyFile: file }], activeKeyId: id } } };
}

/** Registers `keys generate` on the CLI program. */
export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('Encryption keys for personal data in Temporal');
  keys
    .command('generate')
    .description('Write a new random key (base64 of 32 bytes) to a file readable by its owner only (0600)')
    .requiredOption('--out <file>', 'the key file to write')
    .option('--id <id>', 'key id written next to what it encrypts (default: k-<today>)')
    .option('--force', 'replace an existing file (its key is lost, and what it encrypted with it)')
    .action((raw: unknown) => {
      const opts = optionsSchema.parse(raw);
      const file = resolve(opts.out);
      writeKeyFile(file, opts.force === true);
      const id = opts.id ?? `k-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`;
      process.stderr.write(
        `callsync: wrote a new key to ${file} (mode 0600). Use it as temporal.encryption (below), ` +
          'or as temporal.encryption.idKeyFile, erasure.hashKeyFile or server.codec.tokenFile. Back it up: ' +
          'histories encrypted with it cannot be read without it.\n',
      );
      process.stdout.write(`${JSON.stringify(encryptionBlockFor(file, id))}\n`);
    });
}
