// How callsync reaches Temporal: a plain local dev server, a self-hosted cluster behind TLS or
// mTLS, or Temporal Cloud with an API key. Certificates and keys are file paths or PEM text.
import { z } from 'zod';
import { isPemText, secret } from './secret';
import { temporalEncryptionSchema } from './temporal-encryption';

/** A certificate or key: a path to a PEM file, or the PEM text itself (starting with -----BEGIN). */
export const pemOrFile = z.string().trim().min(1, 'must be a file path or PEM text');

/** TLS towards the Temporal frontend; present (even empty) means TLS on, with the system's CAs. */
export const temporalTlsSchema = z
  .object({
    /** CA that signed the server's certificate (file or PEM); the system's CAs when absent. */
    serverCa: pemOrFile.optional(),
    /** Name expected in the server's certificate, when it differs from the address's host. */
    serverName: z.string().min(1).optional(),
    /** Client certificate for mTLS (file or PEM); needs clientKey. */
    clientCert: pemOrFile.optional(),
    /** Private key of the client certificate (file path or PEM, or a reference to the PEM); a secret, no default. */
    clientKey: secret(pemOrFile, { inlineIsSecret: isPemText }).optional(),
  })
  .refine((t) => (t.clientCert === undefined) === (t.clientKey === undefined), {
    message: 'clientCert and clientKey go together (mTLS needs both)',
    path: ['clientCert'],
  });

/** The `temporal` config block. */
export const temporalConfigSchema = z.object({
  /** host:port of the Temporal frontend; a local dev server is started when absent. */
  address: z.string().optional(),
  /** Namespace of every workflow (Temporal Cloud: `<name>.<account id>`). */
  namespace: z.string().default('default'),
  /** Task queue of the workflows and of activities that call no vendor. */
  taskQueue: z.string().default('callsync'),
  /** Port of the dev server's web UI (local runs only). */
  uiPort: z.number().int().positive().default(8233),
  /** TLS or mTLS towards the frontend (a self-hosted cluster, Temporal Cloud with mTLS). */
  tls: temporalTlsSchema.optional(),
  /** Temporal Cloud API key (sent as a bearer token, over TLS); a secret, no default. */
  apiKey: secret().optional(),
  /**
   * Payload encryption (docs/privacy.md "Personal data in Temporal"): the keys (`callsync keys generate`), or
   * `"off"` to store payloads in clear. Required: a worker or server refuses to start without it.
   */
  encryption: z.union([z.literal('off'), temporalEncryptionSchema]).optional(),
  /**
   * Deprecated: encryption is required unless `encryption` is `"off"`. `true` changes nothing;
   * `false` is refused (say `encryption: "off"` instead).
   */
  requireEncryption: z
    .boolean()
    .refine((v) => v, {
      message:
        'encryption is now required; to store payloads in clear set temporal.encryption to "off" (and remove temporal.requireEncryption)',
    })
    .optional(),
});

export type TemporalConfig = z.infer<typeof temporalConfigSchema>;
export type TemporalTlsConfig = z.infer<typeof temporalTlsSchema>;
