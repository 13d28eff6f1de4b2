// Turns zod issues into short messages that name the field and the problem, e.g.
// "to: must be an E.164 number" or "[0].id: required". The emulator answers 400 with these in
// `errors`; the client puts them in quarantine reasons. Values are never echoed (they may be secrets).
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

const DEFAULT_TYPE_MESSAGE = /^Invalid input: expected (\w+), received (\w+)/;
const ARTICLE = /^[aeiou]/;

/** Renders an issue path as `field`, `field.sub` or `[0].field`; the empty path is the whole body. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** One message per issue, "path: problem", in order and without duplicates. */
export function formatZodIssues(error: z.ZodError | { issues: readonly Issue[] }): string[] {
  const messages = error.issues.map((issue) => `${formatPath(issue.path)}: ${describe(issue)}`);
  return [...new Set(messages)];
}

function describe(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      // Our builders set their own messages; this rewrites zod's defaults into the same style.
      const match = DEFAULT_TYPE_MESSAGE.exec(issue.message);
      if (!match) return issue.message;
      const [, expected = issue.expected, received] = match;
      if (received === 'undefined' || received === 'null') return 'required';
      return `must be ${ARTICLE.test(expected) ? 'an' : 'a'} ${expected}`;
    }
    case 'invalid_union':
      return issue.message === 'Invalid input' ? 'does not match any accepted form' : issue.message;
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}
