import { isTwoFactorChallenge } from '../../../connectors/platform';
import { messageResponseSchema } from '../../../connectors/platform/schemas';
import { firstRecord, idOf, parsed, type Step } from './step';

/** Authentication module (the client's own session uses the API key, so these calls do not disturb it). */
export const authSteps: Step[] = [
  {
    endpoint: 'POST /login',
    async run(ctx) {
      const answer = await ctx.client.auth.login({ email: ctx.admin.email, password: ctx.admin.password });
      expect(isTwoFactorChallenge(answer)).toBe(false);
      expect(answer).toMatchObject({ user_id: ctx.admin.user_id });
      ctx.ids.loginToken = (answer as { user_token: string }).user_token;
    },
  },
  {
    endpoint: 'POST /login2fa',
    async run(ctx) {
      const user = ctx.twoFactorUser;
      const challenge = await ctx.client.auth.login({ email: user.email, password: user.password });
      expect(isTwoFactorChallenge(challenge)).toBe(true);
      const pending = (await fetch(
        `${ctx.origin}/_emulator/2fa?email=${encodeURIComponent(user.email)}`,
      ).then((r) => r.json())) as { code: string; nonce: string };
      const answer = await ctx.client.auth.login2fa({ code: pending.code, nonce: pending.nonce });
      expect(typeof (answer as { user_token?: unknown }).user_token).toBe('string');
    },
  },
  {
    endpoint: 'GET /ping',
    async run(ctx) {
      const answer = await ctx.client.auth.ping();
      expect(typeof answer.message).toBe('string');
    },
  },
  {
    endpoint: 'POST /confirmation',
    async run(ctx) {
      const sent = parsed(
        messageResponseSchema,
        await ctx.client.auth.resendConfirmation({ email: ctx.admin.email }),
      );
      expect(sent.message).toEqual(expect.any(String));
      await expect(
        ctx.client.auth.resendConfirmation({ email: 'nobody@nowhere.example' }),
      ).rejects.toMatchObject({
        status: 400,
      });
    },
  },
  {
    endpoint: 'POST /password',
    async run(ctx) {
      const sent = parsed(
        messageResponseSchema,
        await ctx.client.auth.requestPasswordReset({ email: ctx.admin.email }),
      );
      expect(sent.message).toEqual(expect.any(String));
    },
  },
  {
    endpoint: 'POST /reset',
    async run(ctx) {
      const pending = (await fetch(
        `${ctx.origin}/_emulator/password-reset?email=${encodeURIComponent(ctx.admin.email)}`,
      ).then((r) => r.json())) as { token: string };
      await expect(
        ctx.client.auth.resetPassword({ token: 'wrong', password: 'x-New-Password-1' }),
      ).rejects.toMatchObject({
        status: 400,
      });
      // Set the same password again so later logins still work.
      await ctx.client.auth.resetPassword({ token: pending.token, password: ctx.admin.password });
      const again = await ctx.client.auth.login({ email: ctx.admin.email, password: ctx.admin.password });
      expect(again).toMatchObject({ user_id: ctx.admin.user_id });
    },
  },
  {
    endpoint: 'GET /aclroles',
    async run(ctx) {
      const role = await firstRecord(ctx.client.auth.aclRoles.list());
      expect(typeof role.id).toBe('number');
      expect(typeof role.name).toBe('string');
      ctx.ids.aclRole = role.id;
    },
  },
  {
    endpoint: 'GET /aclroles/{id}',
    async run(ctx) {
      const role = await ctx.client.auth.aclRoles.get(idOf(ctx, 'aclRole'));
      expect(role.id).toBe(idOf(ctx, 'aclRole'));
    },
  },
];

/** Runs last among the auth steps: logging out destroys the token obtained by POST /login. */
export const logoutStep: Step = {
  endpoint: 'POST /logout',
  async run(ctx) {
    const client = ctx.passwordClient();
    await client.auth.ping(); // logs in
    const answer = parsed(messageResponseSchema, await client.auth.logout());
    expect(answer.message).toEqual(expect.any(String));
  },
};
