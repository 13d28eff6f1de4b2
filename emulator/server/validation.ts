// Request bodies are validated by the same zod schemas the client uses; failures name each bad field.
import type { z } from 'zod';
import { formatZodIssues } from '../../connectors/platform/schemas/issues';
import { badRequest } from './http-error';

/** Parses a value with a schema or throws 400 {message: 'Validation failed', errors: ['field: why', …]}. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  message = 'Validation failed',
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw badRequest(message, formatZodIssues(parsed.error));
}
