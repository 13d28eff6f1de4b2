// HubSpot's CRM search takes a request body of at most 3,000 characters, and at most 100 values in
// one IN filter (https://developers.hubspot.com/docs/api/crm/search, Limitations). A lookup of many
// values is split by the size of the body it makes: build the body, measure its JSON text, split.
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';

/** Longest search request body HubSpot takes, in characters of its JSON text. */
export const MAX_SEARCH_BODY_CHARS = 3_000;
/** Values one IN filter takes. */
export const MAX_IN_VALUES = 100;
/** Room kept in every body for the paging cursor later pages add (`,"after":"…"`). */
const AFTER_ROOM = ',"after":"10000000000"'.length;

/** The length of `body` as the client sends it (JSON text; undefined fields left out). */
export const searchBodyChars = (body: unknown): number => JSON.stringify(body).length;

interface SearchBody {
  filterGroups?: { filters: { values?: readonly unknown[] }[] }[];
}

/** True when HubSpot takes `body` as it is, and with a paging cursor added. */
function fits(body: SearchBody): boolean {
  if (searchBodyChars(body) + AFTER_ROOM > MAX_SEARCH_BODY_CHARS) return false;
  return (body.filterGroups ?? []).every((g) =>
    g.filters.every((f) => f.values === undefined || f.values.length <= MAX_IN_VALUES),
  );
}

/**
 * `items` in runs, each as long as its body (built by `build`) stays within HubSpot's limits, with
 * the body of each run. An item whose body is too long even alone cannot be searched: a CrmError.
 */
export function splitBySearchBody<T, B extends SearchBody>(
  items: readonly T[],
  build: (run: T[]) => B,
): { items: T[]; body: B }[] {
  const runs: { items: T[]; body: B }[] = [];
  let run: T[] = [];
  let body: B | undefined;
  for (const item of items) {
    const candidate = build([...run, item]);
    if (fits(candidate)) {
      run.push(item);
      body = candidate;
      continue;
    }
    if (run.length > 0 && body !== undefined) runs.push({ items: run, body });
    run = [item];
    body = build(run);
    if (!fits(body)) {
      throw new CrmError({
        destination: DESTINATION,
        message: `a search for one value makes a body of ${searchBodyChars(body)} characters (HubSpot takes ${MAX_SEARCH_BODY_CHARS})`,
        retryable: false,
      });
    }
  }
  if (run.length > 0 && body !== undefined) runs.push({ items: run, body });
  return runs;
}
