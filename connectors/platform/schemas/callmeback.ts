// Call Me Back module: settings, websites, buttons, visitors and CDR listings share one shape.
import { z } from 'zod';
import { bool, code, date, int, intId, num, str, textOrList } from './primitives';

/** Shared Call Me Back shape (settings, websites, buttons, visitors, Call Me Back CDRs). */
export const callMeBackSchema = z.looseObject({
  id: intId(),
  /** A string per the spec; request bodies leave its type open, so a list is kept as sent too. */
  allowed_countries: textOrList(),
  button_id: int(),
  created_at: date(),
  culture: code(),
  ddi: int(),
  floating_icon: bool(),
  max_call_rate: num(),
  name: str(),
  position: code(),
  privacy_policy_url: str(),
  show_to_allowed_countries_only: bool(),
  title: str(),
  welcome_screen_msg: str(),
});
export type CallMeBack = z.infer<typeof callMeBackSchema>;
