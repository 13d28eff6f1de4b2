// The platform's numeric `format` and `culture` codes of a report schedule, mapped to what callsync
// builds through the maps of the config (`reports.formats`, `reports.cultures`, in reports/config.ts).
import { cultureFor } from './culture';
import { reportFormatSchema, type ReportFormat } from './config';

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
