// Request bodies of the storage module.
import { z } from 'zod';
import { base64, body, dialledNumber, integer, opt, requiredText, text } from './fields';

/** POST /sms: `from` and `to` with or without `+`, as the platform's clients send them (normalised to `+`). */
export const createSmsBody = body({
  from: opt(dialledNumber({ extensions: false })),
  to: dialledNumber({ extensions: false }),
  message: requiredText(),
});
export type CreateSmsBody = z.infer<typeof createSmsBody>;

/** POST /vmannouncements: `data` is the audio file (MP3, MP4, WAV or AAC) in Base64. */
export const createVmAnnouncementBody = body({
  extension_id: opt(integer()),
  description: opt(text()),
  data: base64(),
});
export type CreateVmAnnouncementBody = z.infer<typeof createVmAnnouncementBody>;

/** PATCH /vmannouncements/{id} */
export const patchVmAnnouncementBody = createVmAnnouncementBody.partial();
export type PatchVmAnnouncementBody = z.infer<typeof patchVmAnnouncementBody>;

/** POST /sms/cannedresponses */
export const createCannedResponseBody = body({ name: requiredText(), text: requiredText() });
export type CreateCannedResponseBody = z.infer<typeof createCannedResponseBody>;

/** PATCH /sms/cannedresponses/{id} */
export const patchCannedResponseBody = createCannedResponseBody.partial();
export type PatchCannedResponseBody = z.infer<typeof patchCannedResponseBody>;
