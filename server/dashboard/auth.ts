// The dashboard's login: one password from config, compared in constant time; a session is a signed
// cookie (expiry, nonce, HMAC under a key derived from the password), so several receiver processes
// share logins and changing the password ends every session. The password is never logged.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'callsync_dashboard';

/** True when `given` is the password (constant time whatever the lengths). */
export function passwordMatches(given: string, password: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(password).digest();
  return timingSafeEqual(a, b);
}

export class DashboardSessions {
  private readonly key: Buffer;

  constructor(
    password: string,
    private readonly ttlMs: number,
  ) {
    this.key = createHmac('sha256', 'callsync-dashboard-session').update(password).digest();
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  /** A new session's cookie value. */
  issue(now = Date.now()): string {
    const body = `${now + this.ttlMs}.${randomBytes(12).toString('base64url')}`;
    return `${body}.${this.sign(body)}`;
  }

  /** True for an unexpired cookie this password signed. */
  valid(value: string | undefined, now = Date.now()): boolean {
    if (!value) return false;
    const at = value.lastIndexOf('.');
    if (at <= 0) return false;
    const body = value.slice(0, at);
    const given = Buffer.from(value.slice(at + 1));
    const want = Buffer.from(this.sign(body));
    if (given.length !== want.length || !timingSafeEqual(given, want)) return false;
    const expires = Number(body.slice(0, body.indexOf('.')));
    return Number.isFinite(expires) && expires > now;
  }

  /** The Set-Cookie header of a session (or of its removal, with value ''). */
  cookie(value: string, secure: boolean): string {
    const age = value ? Math.floor(this.ttlMs / 1000) : 0;
    return `${SESSION_COOKIE}=${value}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${age}${secure ? '; Secure' : ''}`;
  }
}

/** A cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
