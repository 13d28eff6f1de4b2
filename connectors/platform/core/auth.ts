import type { Logger } from '../../../lib/logger';
import type { PlatformCredentials } from '../config';
import { loginResponseSchema, messageResponseSchema, type MessageResponse } from '../schemas';
import { UnauthorizedError } from './errors';
import type { PlatformCore, SessionPort } from './http-core';

/** Asked for the two-factor code when /login says one is needed; returns the code the user received. */
export type TwoFactorCodeProvider = (challenge: { email: string; nonce: string }) => Promise<string>;

/** Settings and dependencies of an auth session. */
export interface AuthSessionOptions {
  credentials: PlatformCredentials;
  /** Idle time after which the next request is preceded by GET /ping. */
  keepAliveMs: number;
  /** Idle time after which the token is presumed expired and the session logs in again. */
  tokenIdleLifetimeMs: number;
  twoFactorCode?: TwoFactorCodeProvider | undefined;
  now: () => number;
  logger: Logger;
  /** Called when a login (the renewal of an expired or missing token) fails (metrics). */
  onLoginFailed?: ((err: unknown) => void) | undefined;
}

/** A login's outcome as the session reads it from the platform's liberal response shapes. */
type LoginOutcome = { kind: 'token'; token: string; userId: string } | { kind: '2fa'; nonce: string };

/**
 * The platform session: an API key used as is, or an e-mail/password login (with two-factor when asked)
 * whose token is kept alive lazily, renewed once after a 401 (one login shared by concurrent requests),
 * and logged out on close.
 */
export class AuthSession implements SessionPort {
  private header: string | undefined;
  private token: string | undefined;
  private userId: string | undefined;
  private lastUsed = 0;
  private pending: Promise<void> | undefined;
  private closing: Promise<void> | undefined;
  private readonly secretSet = new Set<string>();

  constructor(
    private readonly core: PlatformCore,
    private readonly opts: AuthSessionOptions,
  ) {
    const c = opts.credentials;
    if (c.type === 'apiKey') {
      this.secretSet.add(c.apiKey);
      this.setCredential(String(c.userId), c.apiKey);
    } else {
      this.secretSet.add(c.password);
    }
  }

  /** The user id the session authenticates as (known after login for password credentials). */
  get currentUserId(): string | undefined {
    return this.userId;
  }

  /** True once a token or API key is in hand. */
  get isAuthenticated(): boolean {
    return this.header !== undefined;
  }

  authorization(): string | undefined {
    return this.header;
  }

  secrets(): readonly string[] {
    return [...this.secretSet];
  }

  touch(): void {
    this.lastUsed = this.opts.now();
  }

  async prepare(): Promise<void> {
    if (this.opts.credentials.type === 'apiKey') return;
    if (this.closing) throw new Error('platform client is closed');
    if (this.pending) await this.pending;
    const idle = this.opts.now() - this.lastUsed;
    if (this.token === undefined || idle >= this.opts.tokenIdleLifetimeMs) {
      await this.singleFlight(() => this.login());
    } else if (idle >= this.opts.keepAliveMs) {
      await this.singleFlight(() => this.pingOrRelogin());
    }
  }

  async recover(usedAuthorization: string | undefined): Promise<boolean> {
    if (this.opts.credentials.type !== 'password' || this.closing) return false;
    if (this.pending) await this.pending;
    // Another request already logged in again while this one was in flight.
    if (this.header !== undefined && this.header !== usedAuthorization) return true;
    await this.singleFlight(() => this.login());
    return true;
  }

  /** Logs in with the configured e-mail and password (POST /login, then POST /login2fa when asked). */
  async login(): Promise<void> {
    const c = this.opts.credentials;
    if (c.type !== 'password') return;
    const first = await this.core.request({
      method: 'POST',
      template: '/login',
      body: { email: c.email, password: c.password },
      auth: 'none',
      response: 'json',
      schema: loginResponseSchema,
      envelope: 'auto',
    });
    let outcome = readLogin(first);
    if (outcome.kind === '2fa') {
      const nonce = outcome.nonce;
      this.secretSet.add(nonce);
      if (!this.opts.twoFactorCode) {
        throw new UnauthorizedError({
          method: 'POST',
          path: '/login',
          message: 'POST /login: two-factor code required but no twoFactorCode provider is configured',
        });
      }
      const code = await this.opts.twoFactorCode({ email: c.email, nonce });
      this.secretSet.add(code);
      const second = await this.core.request({
        method: 'POST',
        template: '/login2fa',
        body: { code, nonce },
        auth: 'none',
        response: 'json',
        schema: loginResponseSchema,
        envelope: 'auto',
      });
      outcome = readLogin(second);
      if (outcome.kind !== 'token') {
        throw new UnauthorizedError({
          method: 'POST',
          path: '/login2fa',
          message: 'POST /login2fa: the platform asked for another two-factor code',
        });
      }
    }
    this.token = outcome.token;
    this.setCredential(outcome.userId, outcome.token);
    this.touch();
    this.opts.logger.info({ userId: outcome.userId }, 'platform: logged in');
  }

  /** GET /ping now (logging in first if needed, and again if the token has expired). */
  async keepAlive(): Promise<MessageResponse> {
    if (this.opts.credentials.type === 'password' && this.token === undefined) {
      await this.singleFlight(() => this.login());
    }
    try {
      return await this.ping();
    } catch (e) {
      if (!(e instanceof UnauthorizedError) || this.opts.credentials.type !== 'password') throw e;
      await this.singleFlight(() => this.login());
      return this.ping();
    }
  }

  /** POST /logout: destroys the token on the platform; the next request logs in again. */
  async logout(): Promise<MessageResponse | undefined> {
    if (this.opts.credentials.type === 'password' && this.token === undefined) return undefined;
    try {
      return await this.core.request({
        method: 'POST',
        template: '/logout',
        auth: 'current',
        response: 'json',
        schema: messageResponseSchema,
        envelope: 'auto',
      });
    } finally {
      if (this.opts.credentials.type === 'password') {
        this.token = undefined;
        this.header = undefined;
      }
    }
  }

  /** Logs out a password session (once; later calls return at once); API-key sessions have nothing to end. */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    if (this.pending) await this.pending.catch(() => undefined);
    if (this.opts.credentials.type !== 'password' || this.token === undefined) return;
    try {
      await this.logout();
    } catch (e) {
      // The token dies by itself after 15 idle minutes; a failed logout must not fail shutdown.
      this.opts.logger.warn({ error: e instanceof Error ? e.message : 'unknown' }, 'platform: logout failed');
    }
  }

  private async ping(): Promise<MessageResponse> {
    return this.core.request({
      method: 'GET',
      template: '/ping',
      auth: 'current',
      response: 'json',
      schema: messageResponseSchema,
      envelope: 'auto',
    });
  }

  private async pingOrRelogin(): Promise<void> {
    try {
      await this.ping();
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
      await this.login();
    }
  }

  /** Runs `work` unless another call's work is running, in which case it waits for that instead. */
  private async singleFlight(work: () => Promise<void>): Promise<void> {
    if (!this.pending) {
      this.pending = work()
        .catch((err: unknown) => {
          // Once per shared login, however many requests wait on it.
          this.opts.onLoginFailed?.(err);
          throw err;
        })
        .finally(() => {
          this.pending = undefined;
        });
    }
    await this.pending;
  }

  private setCredential(userId: string, secret: string): void {
    const pair = `${userId}:${secret}`;
    const encoded = Buffer.from(pair).toString('base64');
    this.userId = userId;
    this.header = `Basic ${encoded}`;
    for (const s of [secret, pair, encoded]) this.secretSet.add(s);
  }
}

function readLogin(body: unknown): LoginOutcome {
  const r = (body ?? {}) as Record<string, unknown>;
  const token = r.user_token;
  const userId = r.user_id;
  if (
    typeof token === 'string' &&
    token !== '' &&
    (typeof userId === 'number' || typeof userId === 'string')
  ) {
    return { kind: 'token', token, userId: String(userId) };
  }
  if (typeof r.nonce === 'string' && r.nonce !== '') return { kind: '2fa', nonce: r.nonce };
  throw new UnauthorizedError({
    method: 'POST',
    path: '/login',
    message: 'POST /login: the response carried neither a token nor a two-factor nonce',
  });
}
