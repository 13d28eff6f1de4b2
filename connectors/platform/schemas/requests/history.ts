// Request bodies of the history module.
import { z } from 'zod';
import { problem } from '../primitives';
import { array, body, bulk, codeValue, integer, opt, requiredText, text } from './fields';

/**
 * PATCH /cdrs (bulk): objects identified by id. Beyond the id the spec shows nothing; the emulator
 * reads `labels` (call label names or ids, replacing the CDR's) and `note` (a note added to the CDR,
 * as GET /cdrs/{id}/notes lists them), and keeps other fields.
 */
export const bulkPatchCdrsBody = bulk(
  body({
    id: integer(),
    labels: opt(array(z.union([text(), integer()], { error: problem('must be a label name or id') }))),
    note: opt(requiredText()),
  }),
);
export type BulkPatchCdrsBody = z.infer<typeof bulkPatchCdrsBody>;

/** PATCH /monitors/{id}: transcript and analysis of a recording. */
export const patchMonitorBody = body({
  transcript: opt(text()),
  transcript_speakers: opt(text()),
  summary: opt(text()),
  sentiment: opt(text()),
  cx_score: opt(integer()),
  metadata: opt(z.unknown()),
});
export type PatchMonitorBody = z.infer<typeof patchMonitorBody>;

/** PATCH /voicemessages (bulk): move messages between folders. */
export const bulkPatchVoicemessagesBody = bulk(body({ id: integer(), folder: opt(codeValue()) }));
export type BulkPatchVoicemessagesBody = z.infer<typeof bulkPatchVoicemessagesBody>;
