// The platform's numeric `format` and `culture` codes of a report schedule, mapped to what callsync
// builds. The maps are config (`reports.formats`, `reports.cultures`) with defaults that match the
// codes the emulator's /reportschedules/dictionaries lists.
import { z } from 'zod';
import { cultureFor } from './culture';

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

/** A code a schedule carries that the config's map does not list. */
export class UnknownCodeError extends Error {
  override readonly name = 'UnknownCodeError';
  constructor(
    readonly field: 'format' | 'culture',
    readonly code: string,
    readonly knownCodes: readonly string[],
  ) {
    super(
      `${field} code ${JSON.stringify(code)} is not in reports.${field === 'format' ? 'formats' : 'cultures'}; known codes: ${knownCodes.join(', ')}`,
    );
  }
}

function lookup<T>(
  field: 'format' | 'culture',
  map: Readonly<Record<string, T>>,
  value: number | string | null | undefined,
): T {
  const key = String(value ?? '').trim();
  const found = Object.hasOwn(map, key) ? map[key] : undefined;
  if (found === undefined) throw new UnknownCodeError(field, key, Object.keys(map));
  return found;
}

/**
 * The file format of a schedule's `format` code (a number, or the numeric string the platform
 * sends). A format name (`csv`, `XLSX`), as the spec's POST body takes, is accepted as itself.
 */
export function formatFromCode(
  code: number | string | null | undefined,
  config: { formats: Readonly<Record<string, ReportFormat>> },
): ReportFormat {
  const named = reportFormatSchema.safeParse(typeof code === 'string' ? code.trim().toLowerCase() : code);
  if (named.success) return named.data;
  return lookup('format', config.formats, code);
}

/**
 * The BCP 47 culture tag of a schedule's `culture` code. A locale name (`en_GB`, `de-DE`), as the
 * spec's POST body takes, is accepted as itself when callsync has its language.
 */
export function cultureFromCode(
  code: number | string | null | undefined,
  config: { cultures: Readonly<Record<string, string>> },
): string {
  if (typeof code === 'string' && /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/.test(code.trim())) {
    return cultureFor(code.trim().replace(/_/g, '-')).tag;
  }
  return lookup('culture', config.cultures, code);
}
