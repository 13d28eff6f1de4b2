// Request bodies of the Call Me Back module.
import { z } from 'zod';
import {
  array,
  body,
  boolean,
  codeValue,
  ddiNumber,
  integer,
  number,
  opt,
  requiredText,
  text,
  url,
} from './fields';

/** POST /callmeback/settings */
export const createCallMeBackSettingBody = body({
  button_id: opt(integer()),
  name: requiredText(),
  position: opt(codeValue()),
  floating_icon: opt(boolean()),
  culture: opt(codeValue()),
  /** Type left open by the spec: a string or a list of country codes. */
  allowed_countries: opt(z.union([text(), array()], { error: 'must be a string or an array' })),
  show_to_allowed_countries_only: opt(boolean()),
  welcome_screen_msg: opt(text()),
  privacy_policy_url: opt(url()),
  ddi_e164: opt(ddiNumber()),
  max_call_rate: opt(number()),
});
export type CreateCallMeBackSettingBody = z.infer<typeof createCallMeBackSettingBody>;

/** PATCH /callmeback/settings/{id} */
export const patchCallMeBackSettingBody = createCallMeBackSettingBody.partial();
export type PatchCallMeBackSettingBody = z.infer<typeof patchCallMeBackSettingBody>;

/** POST /callmeback/buttons: body not shown by the spec; the PATCH fields are typed, others kept. */
export const createCallMeBackButtonBody = body({
  name: opt(text()),
  data_online: opt(text()),
  data_offline: opt(text()),
});
export type CreateCallMeBackButtonBody = z.infer<typeof createCallMeBackButtonBody>;

/** PATCH /callmeback/buttons/{id} */
export const patchCallMeBackButtonBody = createCallMeBackButtonBody.partial();
export type PatchCallMeBackButtonBody = z.infer<typeof patchCallMeBackButtonBody>;
