// How the Salesforce test server matches a SOSL search, as Salesforce documents its search index
// rather than the way callsync filters the hits afterwards:
//
// - Tokens. "The search engine splits record information separated by spaces or punctuation into
//   separate tokens", and words in the search query "are delimited by spaces, punctuation, and changes
//   from letters to digits (and vice-versa)"; searches are case-insensitive
//   (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_sosl_find.htm).
//   A phone field holding "+44 20 7946 0571" is the tokens 44, 20, 7946 and 0571: a search for
//   442079460571 does not find it, a search for 0571 does. A record's text as typed by a person is
//   rarely the E.164 form, so matching is where this differs most from a digits comparison.
// - Operators. Words of one term must all match (AND is the default operator); OR between terms;
//   `*` matches one or more characters at the middle or end of a word, never at its start.
// - Sizes. A search query over 4,000 characters loses its logical operators (every word is OR-ed), and
//   one over 10,000 characters returns no rows (same page). A search returns at most 2,000 records
//   (https://developer.salesforce.com/docs/atlas.en-us.soql_sosl.meta/soql_sosl/sforce_api_calls_sosl_limits.htm).
//
// What Salesforce does beyond that for phone fields (any special normalisation of phone numbers) is
// not documented, so it is not assumed here.

/** Records one search returns at most. */
export const SOSL_MAX_ROWS = 2000;
/** Longest search query that keeps its logical operators. */
export const SOSL_OPERATORS_MAX_CHARS = 4000;
/** Longest search query that returns rows at all. */
export const SOSL_QUERY_MAX_CHARS = 10000;

/** The tokens of a field's text: split at spaces, punctuation and letter/digit changes, lower case. */
export function searchTokens(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []).filter((t) => t !== '');
}

/** One word of the query: its tokens, the last one a prefix when the word ends with `*`. */
interface Word {
  tokens: string[];
  prefix: boolean;
}

function word(text: string): Word | null {
  const prefix = text.endsWith('*');
  const tokens = searchTokens(prefix ? text.slice(0, -1) : text);
  return tokens.length > 0 ? { tokens, prefix } : null;
}

function wordMatches(w: Word, tokens: ReadonlySet<string>): boolean {
  return w.tokens.every((t, i) =>
    w.prefix && i === w.tokens.length - 1 ? [...tokens].some((r) => r.startsWith(t)) : tokens.has(t),
  );
}

/**
 * The predicate a FIND {…} query applies to a record's tokens. Terms are split on OR; the words of a
 * term must all match. Null when the query is too long to return rows.
 */
export function findPredicate(query: string): ((tokens: ReadonlySet<string>) => boolean) | null {
  if (query.length > SOSL_QUERY_MAX_CHARS) return null;
  const terms =
    query.length > SOSL_OPERATORS_MAX_CHARS
      ? query
          .split(/\s+/)
          .filter((w) => !/^(and|or|not)$/i.test(w))
          .map((w) => [w])
      : query.split(/\s+OR\s+/i).map((t) => t.trim().split(/\s+(?:AND\s+)?/i));
  const parsed = terms
    .map((words) => words.map(word).filter((w): w is Word => w !== null))
    .filter((words) => words.length > 0);
  return (tokens) => parsed.some((words) => words.every((w) => wordMatches(w, tokens)));
}
