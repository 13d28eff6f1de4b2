// Authentication module resources: ACL roles and the login answers.
import { z } from 'zod';
import { bool, int, intId, problem, str } from './primitives';

export const aclRoleSchema = z.looseObject({
  id: intId(),
  _name: str(),
  name: str(),
  product_code: str(),
});
export type AclRole = z.infer<typeof aclRoleSchema>;

/** Successful login: the token and user id for Basic authentication. */
export const loginTokenResponseSchema = z.looseObject({
  message: str(),
  user_token: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z.string({ error: problem('must be a string') }).min(1, { error: 'required' }),
  ),
  user_id: intId(),
});
export type LoginTokenResponse = z.infer<typeof loginTokenResponseSchema>;

/** Login that needs a second factor: POST /login2fa with the code and this nonce. */
export const loginTwoFactorResponseSchema = z.looseObject({
  message: str(),
  two_factor_required: bool().refine((v) => v === true, { error: 'must be true' }),
  nonce: z.string({ error: problem('must be a string') }).min(1, { error: 'required' }),
  user_id: int(),
});
export type LoginTwoFactorResponse = z.infer<typeof loginTwoFactorResponseSchema>;

/** Answer of POST /login and POST /login2fa: a token, or (login only) a two-factor challenge. */
export const loginResponseSchema = z.union([loginTokenResponseSchema, loginTwoFactorResponseSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** True when a login answer asks for the two-factor step instead of carrying a token. */
export function isTwoFactorChallenge(r: LoginResponse): r is LoginTwoFactorResponse {
  return r.two_factor_required === true && typeof r.nonce === 'string';
}
