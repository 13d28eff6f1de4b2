import { z } from 'zod';
import { secret } from '../../config/secret';

/** Static S3 credentials; without them the AWS SDK's default chain is used (env, profile, instance role). */
export const s3CredentialsSchema = z.object({
  /** Access key id (not a secret; a reference is accepted too); no default. */
  accessKeyId: secret(z.string().min(1), { inlineIsSecret: () => false }),
  /** Secret access key; a secret, no default. */
  secretAccessKey: secret(),
  /** Session token of temporary credentials; a secret. */
  sessionToken: secret().optional(),
});

/** S3 or an S3-compatible store (Garage, Ceph, R2…) for archived audio and report files. */
export const s3ConfigSchema = z.object({
  /** Bucket name (it must exist). */
  bucket: z.string().min(3, 'must be an S3 bucket name'),
  /** AWS region of the bucket. */
  region: z.string().min(1).default('us-east-1'),
  /** Endpoint of an S3-compatible service, e.g. http://garage:3900; AWS when absent. */
  endpoint: z.url().optional(),
  /** Path-style URLs (bucket in the path), which most S3-compatible services need. */
  forcePathStyle: z.boolean().default(false),
  /** Prepended to every key, e.g. `callsync/`. */
  prefix: z
    .string()
    .regex(/^([^/].*\/)?$/, 'must be empty or end with / (and not start with /)')
    .default(''),
  /** Static credentials; the SDK's default credential chain when absent. */
  credentials: s3CredentialsSchema.optional(),
  /** Size of one multipart part in MiB (S3's minimum is 5); bodies up to this size go in one PUT. */
  partSizeMb: z.number().int().min(5).max(512).default(8),
  /** Parts uploaded at once per object. */
  partsAtOnce: z.number().int().min(1).max(16).default(2),
});

export type S3Config = z.infer<typeof s3ConfigSchema>;
export type S3ConfigInput = z.input<typeof s3ConfigSchema>;
