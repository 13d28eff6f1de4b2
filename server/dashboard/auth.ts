// The dashboard's log-in: users stored in PostgreSQL (role, accounts, scrypt hash), plus the bootstrap
// admin whose password is in config; sessions stored server-side (the cookie holds a random token,
// the table its sha256), so logging out or changing a password ends them at once and several
// receiver processes share them; failed log-ins counted per address and per username lock both out
// for a while. No password or token is ever logged.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  clearLoginFailures,
  createDashboardSession,
  deleteDashboardSession,
  findDashboardSession,
  getDashboardUser,
  loginLockedUntil,
  recordLoginFailure,
  type Database,
  type LockoutPolicy,
  type LoginKey,
} from '../../connectors/postgres';
import { decoyHash, verifyPassword } from '../../lib/password-hash';

export const SESSION_COOKIE = 'callsync_dashboard';
/** The log-in form's CSRF token (double-submit: cookie and hidden field must agree). */
export const LOGIN_CSRF_COOKIE = 'callsync_login';
/** The username of the admin whose password is server.dashboard.password(File). */
export const BOOTSTRAP_USERNAME = 'admin';

/** True when `given` is the password (constant time whatever the lengths). */
export function passwordMatches(given: string, password: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(password).digest();
  return timingSafeEqual(a, b);
}

/** Equal strings, compared in constant time. */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  return passwordMatches(a, b);
}

/** A new random token (cookie values, CSRF tokens). */
export const newToken = () => randomBytes(32).toString('base64url');

const tokenId = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Who is logged in, and what they may see. */
export interface Viewer {
  username: string;
  role: 'admin' | 'viewer';
  /** Configured accounts they may see, in config order. */
  accounts: string[];
  csrf: string;
  /** The session's id (the sha256 of the cookie's token). */
  sessionId: string;
}

export type LoginResult =
  | { kind: 'ok'; token: string; viewer: Viewer }
  | { kind: 'refused' }
  | { kind: 'locked'; scope: 'address' | 'user'; until: Date };

export interface DashboardAuthOptions {
  db: Kysely<Database>;
  /** The bootstrap admin's password. */
  password: string;
  /** Every configured account. */
  accounts: readonly string[];
  ttlMs: number;
  /** When failures lock a username, and when they lock an address. */
  lockout: Record<LoginKey['scope'], LockoutPolicy>;
}

export class DashboardAuth {
  /** Marks the bootstrap admin's sessions: a new config password ends them. */
  private readonly credential: string;

  constructor(private readonly o: DashboardAuthOptions) {
    this.credential = createHmac('sha256', 'callsync-dashboard-bootstrap')
      .update(o.password)
      .digest('base64url');
  }

  /** The accounts a role with these allowed accounts sees, in config order. */
  private visible(role: string, allowed: readonly string[]): string[] {
    return role === 'admin' ? [...this.o.accounts] : this.o.accounts.filter((a) => allowed.includes(a));
  }

  /** Checks a log-in; a locked address or username is refused before the password is looked at. */
  async login(username: string, password: string, address: string, now = new Date()): Promise<LoginResult> {
    const keys: LoginKey[] = [
      { scope: 'address', key: address },
      { scope: 'user', key: username.toLowerCase() },
    ];
    const locked = await loginLockedUntil(this.o.db, keys, now);
    if (locked) return { kind: 'locked', scope: locked.scope as 'address' | 'user', until: locked.until };

    const stored = await getDashboardUser(this.o.db, username);
    let role: 'admin' | 'viewer' | undefined;
    let allowed: readonly string[] = [];
    let credential: string | null = null;
    if (stored) {
      if (await verifyPassword(password, stored.password_hash)) {
        role = stored.role === 'admin' ? 'admin' : 'viewer';
        allowed = stored.accounts;
      }
    } else if (username === BOOTSTRAP_USERNAME) {
      // A stored user named admin replaces the bootstrap admin; until then the config password is its.
      if (passwordMatches(password, this.o.password)) {
        role = 'admin';
        credential = this.credential;
      }
    } else {
      // An unknown username costs what a known one does: timing does not tell which exist.
      await verifyPassword(password, await decoyHash());
    }
    if (!role) {
      let lockedUntil: { scope: 'address' | 'user'; until: Date } | undefined;
      for (const k of keys) {
        const until = await recordLoginFailure(this.o.db, k, this.o.lockout[k.scope], now);
        if (until && !lockedUntil) lockedUntil = { scope: k.scope, until };
      }
      return lockedUntil ? { kind: 'locked', ...lockedUntil } : { kind: 'refused' };
    }
    for (const k of keys) await clearLoginFailures(this.o.db, k);
    const token = newToken();
    const csrf = newToken();
    const id = tokenId(token);
    await createDashboardSession(this.o.db, {
      id,
      username,
      credential,
      csrfToken: csrf,
      expiresAt: new Date(now.getTime() + this.o.ttlMs),
    });
    return {
      kind: 'ok',
      token,
      viewer: { username, role, accounts: this.visible(role, allowed), csrf, sessionId: id },
    };
  }

  /** The viewer of a session cookie, or undefined when it is missing, expired, revoked or stale. */
  async session(token: string | undefined, now = new Date()): Promise<Viewer | undefined> {
    if (!token || token.length > 100) return undefined;
    const s = await findDashboardSession(this.o.db, tokenId(token), now);
    if (!s) return undefined;
    if (s.credential !== null) {
      // The bootstrap admin: valid while the config password is the one it logged in with and no
      // stored user has taken the name.
      if (!sameToken(s.credential, this.credential)) return undefined;
      if (await getDashboardUser(this.o.db, s.username)) return undefined;
      return {
        username: s.username,
        role: 'admin',
        accounts: [...this.o.accounts],
        csrf: s.csrf_token,
        sessionId: s.id,
      };
    }
    const u = await getDashboardUser(this.o.db, s.username);
    if (!u) return undefined;
    const role = u.role === 'admin' ? 'admin' : 'viewer';
    return {
      username: u.username,
      role,
      accounts: this.visible(role, u.accounts),
      csrf: s.csrf_token,
      sessionId: s.id,
    };
  }

  /** Ends a session (log-out). */
  async logout(sessionId: string): Promise<void> {
    await deleteDashboardSession(this.o.db, sessionId);
  }
}

/** The Set-Cookie header of a session (or of its removal, with value ''). */
export function sessionCookie(value: string, ttlMs: number, secure: boolean): string {
  const age = value ? Math.floor(ttlMs / 1000) : 0;
  return `${SESSION_COOKIE}=${value}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${age}${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie header of the log-in form's CSRF token (lives as long as a form is open). */
export function loginCsrfCookie(value: string, secure: boolean): string {
  return `${LOGIN_CSRF_COOKIE}=${value}; Path=/dashboard/login; HttpOnly; SameSite=Strict; Max-Age=3600${secure ? '; Secure' : ''}`;
}

/** A cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
