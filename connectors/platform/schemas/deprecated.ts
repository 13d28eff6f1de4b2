// Fields the platform has deprecated (spec, Versioning). They are still accepted and typed; each
// carries `.meta({ deprecated: true })` in its schema and `@deprecated` in its type.
import { z } from 'zod';

/**
 * Deprecated response fields per resource; the spec names no replacements.
 * - cdr: `call_id`, `is_root`, `root_live_id` (each is `@deprecated` in the Cdr type)
 * - user: `legacy_api_key` (`@deprecated` in the User type)
 */
export const DEPRECATED_FIELDS = {
  cdr: ['call_id', 'is_root', 'root_live_id'],
  user: ['legacy_api_key'],
} as const;

/** Names of the fields of an object schema whose metadata marks them deprecated. */
export function deprecatedFieldsOf(schema: { shape: Record<string, z.ZodType> }): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => field.meta()?.deprecated === true)
    .map(([name]) => name);
}
