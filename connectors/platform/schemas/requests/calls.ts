// Request bodies of the calls module.
import { z } from 'zod';
import {
  array,
  body,
  codeValue,
  dialledNumber,
  e164,
  e164OrExtension,
  E164,
  idValue,
  opt,
  text,
  url,
} from './fields';

const callerId = () =>
  z
    .string({ error: 'must be an E.164 number or "anonymous"' })
    .refine((s) => E164.test(s) || s.toLowerCase() === 'anonymous', {
      error: 'must be an E.164 number or "anonymous"',
    });

/** POST /calls: click-to-call to an E.164 number, optionally from a given user. */
export const createCallBody = body({
  to: dialledNumber({ extensions: true }),
  from: opt(idValue()),
  caller_id: opt(callerId()),
});
export type CreateCallBody = z.infer<typeof createCallBody>;

/** PATCH /calls/{id}: transfer (dst), change state, label, attach an action link, control recording. */
export const patchCallBody = body({
  dst: opt(dialledNumber({ extensions: true })),
  state: opt(codeValue()),
  labels: opt(array()),
  action_url: opt(url()),
  action_text: opt(text()),
  monitor_state: opt(codeValue()),
});
export type PatchCallBody = z.infer<typeof patchCallBody>;

/** POST /webcalls */
export const createWebcallBody = body({ from: e164(), to: e164OrExtension() });
export type CreateWebcallBody = z.infer<typeof createWebcallBody>;

/** POST /leadcalls */
export const createLeadcallBody = body({
  caller_id: opt(text()),
  to: e164OrExtension(),
  tts: opt(text()),
});
export type CreateLeadcallBody = z.infer<typeof createLeadcallBody>;

/** POST /calllabels: body not shown by the spec; the likely fields are typed, others kept. */
export const createCallLabelBody = body({ name: opt(text()), color: opt(text()) });
export type CreateCallLabelBody = z.infer<typeof createCallLabelBody>;

/** PATCH /calllabels/{id} */
export const patchCallLabelBody = createCallLabelBody.partial();
export type PatchCallLabelBody = z.infer<typeof patchCallLabelBody>;
