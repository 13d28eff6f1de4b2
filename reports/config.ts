// `reports.*` config of the report builder: the catalogue and the format and culture code maps. The
// maps' defaults match the codes the emulator's /reportschedules/dictionaries lists.
import { z } from 'zod';
import { reportCatalogueSchema } from './catalogue';

export const REPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export const reportFormatSchema = z.enum(REPORT_FORMATS);
export type ReportFormat = z.infer<typeof reportFormatSchema>;

/** Default format codes: the platform's dictionary {0: PDF, 1: CSV, 2: XLSX}. */
export const DEFAULT_FORMAT_CODES: Readonly<Record<string, ReportFormat>> = {
  '0': 'pdf',
  '1': 'csv',
  '2': 'xlsx',
};

/** Default culture codes → BCP 47 tags (0 is what the platform gives a schedule created without one). */
export const DEFAULT_CULTURE_CODES: Readonly<Record<string, string>> = {
  '0': 'en',
  '1': 'en-GB',
  '2': 'en-US',
  '3': 'de-DE',
  '4': 'fr-FR',
  '5': 'es-ES',
};

const code = z.string().regex(/^\d+$/, 'codes are whole numbers');

/** `reports.formats`: format code → csv | xlsx | pdf; entries add to or replace the defaults. */
export const reportFormatsSchema = z
  .record(code, reportFormatSchema)
  .default({})
  .transform((given) => ({ ...DEFAULT_FORMAT_CODES, ...given }));

/** `reports.cultures`: culture code → BCP 47 tag; entries add to or replace the defaults. */
export const reportCulturesSchema = z
  .record(code, z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a BCP 47 tag like de-DE'))
  .default({})
  .transform((given) => ({ ...DEFAULT_CULTURE_CODES, ...given }));

/** Fields of the `reports` config section that the report builder reads. */
export const reportsBuildConfigShape = {
  /** Report id → report kind (and its options); see docs/reports.md "Reports and formats". */
  catalogue: reportCatalogueSchema,
  /** Schedule format code → csv | xlsx | pdf. */
  formats: reportFormatsSchema,
  /** Schedule culture code → BCP 47 tag (en, de, fr, es supported). */
  cultures: reportCulturesSchema,
};

export const reportsBuildConfigSchema = z.object(reportsBuildConfigShape);
export type ReportsBuildConfig = z.output<typeof reportsBuildConfigSchema>;
