// Secrets by reference: every secret field of the configuration takes its value from an environment
// variable (`{ "env": "NAME" }`), from a file (`{ "file": "/run/secrets/x" }`: Docker and Kubernetes
// secrets), or inline where allowed (`allowInlineSecrets`). References resolve while the config is
// parsed; a problem names the field (zod prefixes the path) and the reference, never the value.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

type Env = Record<string, string | undefined>;

/** What a parse of the whole configuration tells its secret fields (config/load.ts sets it). */
export interface SecretContext {
  /** The environment `{ "env": … }` references read. */
  env: Env;
  /** Whether a secret may be written inline (a string) instead of as a reference. */
  allowInline: boolean;
}

// zod's safeParse is synchronous and takes no context of ours: parseConfig sets this around it.
// Outside (a connector's schema parsed on its own, as tests do), inline values are accepted and
// references read process.env.
let current: SecretContext | undefined;

/** Runs the synchronous `parse` with `context` visible to every secret field it meets. */
export function withSecretContext<T>(context: SecretContext, parse: () => T): T {
  const outer = current;
  current = context;
  try {
    return parse();
  } finally {
    current = outer;
  }
}

/** What parseConfig says of an inline secret it refuses. */
export const INLINE_SECRET_REFUSED =
  'an inline secret; give { "env": "NAME" } or { "file": "/path" }, or set allowInlineSecrets for a local setup';

const envRefSchema = z.strictObject({
  env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'),
});
const fileRefSchema = z.strictObject({ file: z.string().min(1, 'must be a file path') });

/** A secret given by reference: an environment variable or a file. */
export type SecretRef = z.infer<typeof envRefSchema> | z.infer<typeof fileRefSchema>;
/** A secret field as written in the config: inline text or a reference. */
export type SecretInput = string | SecretRef;

const SHAPE = 'must be a string, { "env": "NAME" } or { "file": "/path" }';

const secretInputSchema = z.custom<SecretInput>(
  (v) => typeof v === 'string' || envRefSchema.safeParse(v).success || fileRefSchema.safeParse(v).success,
  { message: SHAPE },
);

/** A reference's value, or the problem that names it (never the value). */
export function resolveSecretRef(ref: SecretRef, env: Env): { value: string } | { problem: string } {
  if ('env' in ref) {
    const value = env[ref.env];
    if (value === undefined) return { problem: `environment variable ${ref.env} is not set` };
    if (value === '') return { problem: `environment variable ${ref.env} is empty` };
    return { value };
  }
  let text: string;
  try {
    text = readFileSync(ref.file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    return { problem: `cannot read ${ref.file} (${code})` };
  }
  // Secret files (echo > file, kubectl create secret --from-file) usually end with one newline.
  const value = text.replace(/\r?\n$/, '');
  if (value === '') return { problem: `${ref.file} is empty` };
  return { value };
}

export interface SecretOptions {
  /**
   * Whether an inline value is really a secret (default: always). A database URL without a password
   * or a key given as a file path names a secret without holding one.
   */
  inlineIsSecret?: (value: string) => boolean;
}

/**
 * A secret field: inline text, `{ "env": "NAME" }` or `{ "file": "/path" }`, resolved to the text at
 * parse time and then checked by `inner` (its rules hold whichever way the value came).
 */
export function secret(inner: z.ZodType<string, string> = z.string().min(1), opts: SecretOptions = {}) {
  return secretInputSchema.transform((input, ctx): string => {
    const fail = (message: string): never => {
      // `continue`: the other fields are still checked, and the enclosing union keeps this branch's
      // message. No `input`: the value stays out of the issue.
      ctx.issues.push({ code: 'custom', message, input: undefined, continue: true });
      return z.NEVER;
    };
    let value: string;
    if (typeof input === 'string') {
      if (current && !current.allowInline && (opts.inlineIsSecret?.(input) ?? true))
        fail(INLINE_SECRET_REFUSED);
      value = input;
    } else {
      const resolved = resolveSecretRef(input, current?.env ?? process.env);
      if ('problem' in resolved) return fail(resolved.problem);
      value = resolved.value;
    }
    const checked = inner.safeParse(value);
    if (!checked.success) {
      for (const issue of checked.error.issues)
        ctx.issues.push({
          code: 'custom',
          message: issue.message,
          path: issue.path,
          input: undefined,
          continue: true,
        });
      return z.NEVER;
    }
    return checked.data;
  });
}

/** A URL's password (user:password@ or ?password=) makes it a secret; a URL without one is not. */
export function urlHoldsPassword(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/@?#]*:[^/@?#]*@/i.test(url) || /[?&]password=/i.test(url);
}

/** PEM text is key material; a file path to it is not. */
export function isPemText(value: string): boolean {
  return value.includes('-----BEGIN');
}
