// Field builders for REQUEST bodies. Unlike the response builders these do not coerce: they check
// what a client sends, so the emulator can answer 400 naming each bad field, and their input types
// are what the client writes. Optional fields also accept null (read as "absent" / "clear").
import { z } from 'zod';
import { problem } from '../primitives';

/** E.164 number as the spec requires it: `+`, then 7 to 15 digits. */
export const E164 = /^\+[1-9]\d{6,14}$/;
// DDI ids are E.164 numbers that deployments write with or without the `+`.
const DDI_NUMBER = /^\+?[1-9]\d{6,14}$/;
const EXTENSION = /^\d{1,10}$/;
const NOT_BLANK = /\S/;
const DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;
// Optional data-URL prefix, then the Base64 alphabet (line breaks allowed) and padding.
const BASE64 = /^(?:data:[\w.+-]+\/[\w.+-]+;base64,)?[A-Za-z0-9+/\r\n]+={0,2}$/;

const E164_PROBLEM = 'must be an E.164 number';

/** Optional field; null is accepted and means absent. */
export function opt<T extends z.ZodType>(schema: T) {
  return schema.nullable().optional();
}

/** A JSON object body; unknown keys are kept (the platform ignores them). */
export function body<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.looseObject(shape, { error: problem('must be a JSON object') });
}

/** A bulk PATCH body: a non-empty JSON array of items. */
export function bulk<T extends z.ZodType>(item: T) {
  return z.array(item, { error: problem('must be a JSON array') }).min(1, { error: 'must not be empty' });
}

export function text() {
  return z.string({ error: problem('must be a string') });
}

/** A string with at least one non-space character. */
export function requiredText() {
  return text().regex(NOT_BLANK, { error: 'must not be empty' });
}

export function integer() {
  return z.number({ error: problem('must be an integer') }).int({ error: 'must be an integer' });
}

export function number() {
  return z.number({ error: problem('must be a number') });
}

export function boolean() {
  return z.boolean({ error: problem('must be a boolean') });
}

export function array<T extends z.ZodType = z.ZodUnknown>(item?: T) {
  return z.array((item ?? z.unknown()) as T, { error: problem('must be an array') });
}

export function email() {
  return z.email({ error: problem('must be an e-mail address') });
}

/** An e-mail address, or "" to clear it. */
export function emailOrBlank() {
  return z.union([z.literal(''), email()], { error: problem('must be an e-mail address') });
}

export function url() {
  return z.url({ protocol: /^https?$/, error: problem('must be an http(s) URL') });
}

export function e164() {
  return z.string({ error: problem(E164_PROBLEM) }).regex(E164, { error: E164_PROBLEM });
}

// What the platform's own clients dial: the CTI connector strips the `+`, a community CLI sends "E.164
// without plus", agents dial extensions. The live platform takes all of them.
const DIALLED_NUMBER = /^\+?[1-9]\d{6,14}$/;
const SHORT_EXTENSION = /^\d{1,6}$/;

/**
 * A number as the platform's clients send it: E.164 with or without `+` (normalised to `+` and digits)
 * or, where `extensions` is set, an extension of up to 6 digits (kept as it is).
 */
export function dialledNumber(opts: { extensions: boolean }) {
  const msg = opts.extensions ? 'must be an E.164 number or an extension' : E164_PROBLEM;
  const isExtension = (s: string): boolean => opts.extensions && SHORT_EXTENSION.test(s);
  return z
    .string({ error: problem(msg) })
    .refine((s) => isExtension(s) || DIALLED_NUMBER.test(s), { error: msg })
    .transform((s) => (isExtension(s) || s.startsWith('+') ? s : `+${s}`));
}

/** E.164 destination or an internal extension number. */
export function e164OrExtension() {
  const msg = 'must be an E.164 number or an extension';
  return z.string({ error: problem(msg) }).refine((s) => E164.test(s) || EXTENSION.test(s), { error: msg });
}

/** A DDI number: E.164 with or without `+`, as a string or (as the spec types ddi_e164) an integer. */
export function ddiNumber() {
  return z.union(
    [
      z.string({ error: problem(E164_PROBLEM) }).regex(DDI_NUMBER, { error: E164_PROBLEM }),
      integer().refine((n) => DDI_NUMBER.test(String(n)), { error: E164_PROBLEM }),
    ],
    { error: problem(E164_PROBLEM) },
  );
}

/** An id that may be sent as an integer or a string (user ids, DDI references). */
export function idValue() {
  return z.union([integer(), requiredText()], { error: problem('must be an id (integer or string)') });
}

/**
 * An enum-like field the spec types as string in requests but as an integer code in responses
 * (final_dst_type, strategy, culture, format…): both forms are accepted, so a record read back can be sent.
 */
export function codeValue() {
  return z.union([requiredText(), integer()], { error: problem('must be a string or an integer code') });
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM[:SS]`. */
export function dateText() {
  return text().regex(DATE, { error: 'must be a date (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS)' });
}

/** Base64 file content, optionally as a data URL. */
export function base64() {
  return text().regex(BASE64, { error: 'must be Base64-encoded data' });
}
