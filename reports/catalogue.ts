// The report catalogue: which report a schedule's `report_id` means. The platform does not list
// report ids, so callsync defines the reports call centres schedule, with ids in config
// (`reports.catalogue`) and defaults matching the emulator's seeded schedules.
import { z } from 'zod';

/** Every report callsync can build. */
export const REPORT_KINDS = [
  'call_summary',
  'missed_calls',
  'activity_by_country',
  'queue_performance',
  'recordings_cx',
  'activity_by_ddi',
  'billing',
] as const;

export const reportKindSchema = z.enum(REPORT_KINDS);
export type ReportKind = z.infer<typeof reportKindSchema>;

const entryObject = z.object({
  /** Which report this id builds. */
  kind: reportKindSchema,
  /** Queue performance: a call counts towards the service level when answered within this many seconds. */
  serviceLevelSeconds: z.number().int().min(1).max(3600).default(20),
  /** Most table rows a PDF shows (a million-row PDF is not a report); CSV and XLSX are never capped. */
  pdfMaxRows: z.number().int().min(1).max(100_000).default(2000),
});

/** One catalogue entry: a kind name, or an object with the kind and its options. */
export const reportEntrySchema = z.preprocess((v) => (typeof v === 'string' ? { kind: v } : v), entryObject);
export type ReportEntry = z.output<typeof reportEntrySchema>;

/** The defaults, by report id (the ids the emulator's seeded schedules use, 6 added for DDIs). */
export const DEFAULT_REPORT_IDS: Readonly<Record<string, ReportKind>> = {
  '1': 'call_summary',
  '2': 'missed_calls',
  '3': 'activity_by_country',
  '4': 'queue_performance',
  '5': 'recordings_cx',
  '6': 'activity_by_ddi',
  '7': 'billing',
};

/** `reports.catalogue`: report id → report; entries given in config add to or replace the defaults. */
export const reportCatalogueSchema = z
  .record(z.string().regex(/^\d+$/, 'report ids are whole numbers'), reportEntrySchema)
  .default({})
  .transform((given): Record<string, ReportEntry> => {
    const defaults = Object.fromEntries(
      Object.entries(DEFAULT_REPORT_IDS).map(([id, kind]) => [id, entryObject.parse({ kind })]),
    );
    return { ...defaults, ...given };
  });
export type ReportCatalogue = z.output<typeof reportCatalogueSchema>;

/** The default catalogue, as an empty `reports.catalogue` parses. */
export function defaultCatalogue(): ReportCatalogue {
  return reportCatalogueSchema.parse(undefined);
}

/** A schedule's report_id the catalogue does not know: the run fails with this, and nothing else does. */
export class UnknownReportError extends Error {
  override readonly name = 'UnknownReportError';
  constructor(
    readonly reportId: number,
    readonly knownIds: readonly number[],
  ) {
    super(
      `report_id ${reportId} is not in the report catalogue (reports.catalogue); known ids: ${knownIds.join(', ') || 'none'}`,
    );
  }
}

/** The catalogue entry of a report id, or UnknownReportError. */
export function resolveReport(catalogue: ReportCatalogue, reportId: number): ReportEntry {
  const entry = Object.hasOwn(catalogue, String(reportId)) ? catalogue[String(reportId)] : undefined;
  if (!entry) {
    const known = Object.keys(catalogue)
      .map(Number)
      .sort((a, b) => a - b);
    throw new UnknownReportError(reportId, known);
  }
  return entry;
}
