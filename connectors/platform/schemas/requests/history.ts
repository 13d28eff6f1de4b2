// Request bodies of the history module.
import { z } from 'zod';
import { body, bulk, codeValue, integer, opt, text } from './fields';

/** PATCH /cdrs (bulk): objects identified by id; other fields are not shown by the spec and kept. */
export const bulkPatchCdrsBody = bulk(body({ id: integer() }));
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
