// Authentication control: expire tokens, and read what the platform would have e-mailed (two-factor
// codes, password-reset tokens), since the emulator sends no e-mail.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { badRequest, notFound } from '../http-error';
import { validate } from '../validation';
import { controlRoute, queryValue } from './control-route';

const expireBody = z.strictObject({ token: z.string().min(1).optional() }).optional();

function requiredEmail(value: string | undefined): string {
  if (!value) throw badRequest('Validation failed', ['email: required']);
  return value;
}

function expiresAt(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** POST /_emulator/tokens/expire, GET /_emulator/2fa?email=, GET /_emulator/password-reset?email=. */
export function registerAuthControl(app: FastifyInstance, ctx: EmulatorContext): void {
  controlRoute(app, 'POST', '/tokens/expire', (req) => {
    const body = validate(expireBody, req.body);
    const token = body?.token;
    const expired = token === undefined ? ctx.sessions.expireAll() : Number(ctx.sessions.destroy(token));
    return { body: { expired } };
  });
  controlRoute(app, 'GET', '/2fa', (req) => {
    const email = requiredEmail(queryValue(req, 'email'));
    const challenge = ctx.codes.latestTwoFactor(email);
    if (!challenge) throw notFound(`two-factor code for ${email}`);
    return {
      body: { code: challenge.code, nonce: challenge.nonce, expires_at: expiresAt(challenge.expiresAt) },
    };
  });
  controlRoute(app, 'GET', '/password-reset', (req) => {
    const email = requiredEmail(queryValue(req, 'email'));
    const reset = ctx.codes.latestReset(email);
    if (!reset) throw notFound(`password reset for ${email}`);
    return { body: { token: reset.token, expires_at: expiresAt(reset.expiresAt) } };
  });
}
