import { z } from 'zod';
import { googleCredentialsSchema } from './credentials-config';

const RESUMABLE_GRANULE = 256 * 1024;

/** Google Drive as a report destination: every report file uploaded once into one folder. */
export const driveReportsConfigSchema = z.object({
  /**
   * Id of the Drive folder that receives the files: a folder in a shared drive (a service account
   * owns nothing in a My Drive, so a My Drive folder is refused unless `credentials.subject` acts
   * for its owner).
   */
  folderId: z.string().min(1),
  /** Files larger than this many bytes go up with Drive's resumable protocol, in chunks; smaller ones in one multipart request. */
  resumableAbove: z
    .number()
    .int()
    .min(0)
    .default(5 * 1024 * 1024),
  /** Bytes per resumable chunk; Drive wants a multiple of 256 KiB. */
  chunkBytes: z
    .number()
    .int()
    .min(RESUMABLE_GRANULE)
    .refine((n) => n % RESUMABLE_GRANULE === 0, 'must be a multiple of 262144 (256 KiB)')
    .default(8 * 1024 * 1024),
});

/** Google Sheets as a report destination: a spreadsheet per schedule, a tab per period. */
export const sheetsReportsConfigSchema = z.object({
  /** Write each run's rows into the schedule's spreadsheet. */
  enabled: z.boolean().default(false),
  /** Drive folder of the spreadsheets (in a shared drive, as `drive.folderId`); the Drive folder when omitted. */
  folderId: z.string().min(1).optional(),
  /** Rows per values.batchUpdate request. */
  batchRows: z.number().int().min(1).max(50_000).default(5_000),
  /** Reports with more rows are not written to Sheets (a spreadsheet holds at most 10 million cells). */
  maxRows: z.number().int().min(1).max(1_000_000).default(200_000),
});

/** Google destinations of report delivery, with the service account (or ADC) they use. */
export const googleReportsConfigSchema = z
  .object({
    /** Service account key (file or JSON) or application default credentials; never logged. */
    credentials: googleCredentialsSchema.prefault({}),
    /** API root of the Google clients; only tests point it at a local server. */
    rootUrl: z.url().optional(),
    /** Upload report files to Drive; off when omitted. */
    drive: driveReportsConfigSchema.optional(),
    sheets: sheetsReportsConfigSchema.prefault({}),
  })
  .refine((g) => !g.sheets.enabled || g.sheets.folderId !== undefined || g.drive !== undefined, {
    message: 'sheets need a folder: set sheets.folderId or drive.folderId',
    path: ['sheets', 'folderId'],
  });

export type DriveReportsConfig = z.infer<typeof driveReportsConfigSchema>;
export type SheetsReportsConfig = z.infer<typeof sheetsReportsConfigSchema>;
export type GoogleReportsConfig = z.infer<typeof googleReportsConfigSchema>;
