// Small answers shared by several modules.
import { z } from 'zod';
import { str } from './primitives';

/** `{message}` answers (POST /logout, GET /ping; assumed for /confirmation, /password and /reset). */
export const messageResponseSchema = z.looseObject({ message: str() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** GET …/dictionaries: label tables whose shape the spec does not show, kept whole. */
export const dictionarySchema = z.looseObject({});
export type Dictionary = z.infer<typeof dictionarySchema>;
