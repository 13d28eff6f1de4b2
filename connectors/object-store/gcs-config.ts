import { z } from 'zod';
import { googleCredentialsSchema } from '../google/credentials-config';

/** Recordings and voicemail archived to a Google Cloud Storage bucket instead of a local directory. */
export const gcsArchiveConfigSchema = z.object({
  /** Bucket the audio goes to (it must exist; callsync does not create buckets). */
  bucket: z.string().regex(/^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/, 'a Cloud Storage bucket name'),
  /** Prefix of every object name (e.g. `callsync/`); none by default. */
  prefix: z
    .string()
    .regex(/^([A-Za-z0-9._-]+\/)*$/, 'folders ending in /, such as callsync/')
    .default(''),
  /** Project billed for the requests (default: the credentials' project). */
  projectId: z.string().min(1).optional(),
  /** Service account or application default credentials (see connectors/google/credentials.ts). */
  credentials: googleCredentialsSchema.prefault({}),
  /** API origin; only tests point it elsewhere (fake-gcs-server). */
  apiEndpoint: z.url().optional(),
});

export type GcsArchiveConfig = z.infer<typeof gcsArchiveConfigSchema>;
