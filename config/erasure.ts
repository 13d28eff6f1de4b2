// `callsync erase`: the key of the suppression list's hashes, and whether CRM records go too.
import { z } from 'zod';
import { secret } from './secret';

export const erasureConfigSchema = z
  .object({
    /**
     * Key (base64, at least 16 bytes) of the HMAC-SHA256 that stands for an erased number or e-mail
     * (the suppression list, the tokens left in the warehouse); a secret. The callback id key
     * (temporal.encryption.idKey) when absent. Never change it: the suppression list is in its hashes.
     */
    hashKey: secret().optional(),
    /** A file holding hashKey, instead of hashKey (kept for existing configs: `hashKey: { "file": … }` is the way). */
    hashKeyFile: z.string().min(1).optional(),
    /** Also delete, through the CRM connector, the call logs and callback tasks callsync created. */
    deleteCrmRecords: z.boolean().default(false),
  })
  .refine((e) => e.hashKey === undefined || e.hashKeyFile === undefined, {
    message: 'give at most one of hashKey and hashKeyFile',
    path: ['hashKey'],
  });

export type ErasureConfig = z.infer<typeof erasureConfigSchema>;
