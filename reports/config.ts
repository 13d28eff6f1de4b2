// `reports.*` config of the report builder: the catalogue and the format and culture code maps.
import { z } from 'zod';
import { reportCatalogueSchema } from './catalogue';
import { reportCulturesSchema, reportFormatsSchema } from './codes';

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
