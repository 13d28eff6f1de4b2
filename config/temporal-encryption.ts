// Encryption of workflow and activity payloads in Temporal (AES-256-GCM, lib/payload-codec.ts), and
// the key that hashes personal data out of workflow ids. Keys are secrets: no defaults, never logged.
import { z } from 'zod';
import { secret } from './secret';

/** One encryption key: base64 of 32 bytes, given inline or in a file. */
export const encryptionKeySchema = z
  .object({
    /** Key id written into each payload's metadata (`encryption-key-id`); never reuse one for another key. */
    id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dot, underscore or dash'),
    /** The key, base64 of 32 random bytes (`openssl rand -base64 32`); a secret (`{ "env" }` or `{ "file" }`). */
    key: secret().optional(),
    /** A file holding the key (base64 of 32 bytes), instead of `key` (kept: `key: { "file": … }` is the way). */
    keyFile: z.string().min(1).optional(),
  })
  .refine((k) => (k.key === undefined) !== (k.keyFile === undefined), {
    message: 'give exactly one of key and keyFile',
    path: ['key'],
  });

/** The `temporal.encryption` block. */
export const temporalEncryptionSchema = z
  .object({
    /** Every key that may have written a payload still in a history: the active one and older ones. */
    keys: z.array(encryptionKeySchema).min(1, 'at least one key is needed'),
    /** Id of the key that encrypts new payloads (one of `keys`). */
    activeKeyId: z.string().min(1),
    /**
     * Key (base64, at least 16 bytes, or a file) of the HMAC-SHA256 that replaces phone numbers in
     * workflow ids; a secret. Never rotate it while callbacks are open (their ids would change).
     */
    idKey: secret().optional(),
    /** A file holding idKey, instead of idKey (kept: `idKey: { "file": … }` is the way). */
    idKeyFile: z.string().min(1).optional(),
  })
  .superRefine((e, ctx) => {
    const ids = e.keys.map((k) => k.id);
    if (!ids.includes(e.activeKeyId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['activeKeyId'],
        message: `"${e.activeKeyId}" is not the id of one of temporal.encryption.keys (${ids.join(', ')})`,
      });
    }
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['keys'], message: `key id "${dup}" appears twice` });
    if (e.idKey !== undefined && e.idKeyFile !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['idKey'], message: 'give at most one of idKey and idKeyFile' });
    }
  });

export type TemporalEncryptionConfig = z.infer<typeof temporalEncryptionSchema>;
