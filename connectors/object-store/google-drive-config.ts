// `archive.googleDrive` config (schema only): the Drive folder audio is archived into, and how
// uploads go; connectors/object-store/google-drive.ts is the store.
import { z } from 'zod';
import { googleCredentialsSchema } from '../google/credentials-config';

/** `archive.googleDrive`: archive audio into Drive instead of `archive.dir`. */
export const googleDriveArchiveConfigSchema = z.object({
  /** The service account (or application default credentials) that writes the files. */
  credentials: googleCredentialsSchema.prefault({}),
  /**
   * Id of the Drive folder that holds the archive: a folder in a shared drive the service account is
   * a member of (Content manager). A My Drive folder is refused at first use (a service account has
   * no storage quota), unless `credentials.subject` acts for the user whose Drive it is.
   */
  folderId: z.string().min(1),
  /** Files above this size go up with Drive's resumable protocol. */
  resumableAbove: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** Bytes per resumable chunk (a multiple of 256 KiB). */
  chunkBytes: z
    .number()
    .int()
    .refine((n) => n > 0 && n % (256 * 1024) === 0, 'must be a multiple of 262144 (256 KiB)')
    .default(8 * 1024 * 1024),
  /** Drive API root; only tests point it elsewhere. */
  rootUrl: z.url().optional(),
});

export type GoogleDriveArchiveConfig = z.infer<typeof googleDriveArchiveConfigSchema>;
