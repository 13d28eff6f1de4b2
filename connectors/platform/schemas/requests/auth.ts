// Request bodies of the authentication module.
import { z } from 'zod';
import { body, boolean, email, opt, requiredText, text } from './fields';

/** POST /login */
export const loginBody = body({
  email: email(),
  password: requiredText(),
  remember_me: opt(boolean()),
  device_fingerprint: opt(text()),
});
export type LoginBody = z.infer<typeof loginBody>;

/** POST /login2fa: the code sent by e-mail and the nonce from the login answer. */
export const login2faBody = body({
  code: requiredText(),
  nonce: requiredText(),
  add_device: opt(boolean()),
  remember_me: opt(boolean()),
});
export type Login2faBody = z.infer<typeof login2faBody>;

/** POST /confirmation: resend the confirmation e-mail. */
export const confirmationBody = body({ email: email() });
export type ConfirmationBody = z.infer<typeof confirmationBody>;

/** POST /password: start a password reset. */
export const passwordBody = body({ email: email() });
export type PasswordBody = z.infer<typeof passwordBody>;

/** POST /reset: the token from the e-mail and the new password. */
export const resetBody = body({ token: requiredText(), password: requiredText() });
export type ResetBody = z.infer<typeof resetBody>;
