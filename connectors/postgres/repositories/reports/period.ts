// What every report query is given: the account and the run's period as [from, to) instants, which
// the caller computed in the schedule's time zone; local grouping uses that zone.
import { sql, type Expression, type RawBuilder } from 'kysely';

export interface ReportQuery {
  account: string;
  /** First instant of the period (inclusive). */
  from: Date;
  /** First instant after the period (exclusive). */
  to: Date;
  /** The schedule's IANA time zone. */
  timezone: string;
}

/** Rows fetched per cursor round trip when a report streams. */
export const REPORT_STREAM_CHUNK = 2000;

/** `name` of a user (first and last name), or null when the user is unknown. */
export function userName(
  first: Expression<string | null>,
  last: Expression<string | null>,
): RawBuilder<string | null> {
  return sql<string | null>`nullif(concat_ws(' ', ${first}, ${last}), '')`;
}
