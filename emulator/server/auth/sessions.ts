// Session tokens: issued by /login and /login2fa, idle out after 15 minutes of the emulator's clock.
import { randomBytes } from 'node:crypto';
import type { EmulatorClock } from '../../store';

/** The spec's idle lifetime of a user token. */
export const TOKEN_IDLE_MS = 15 * 60 * 1000;

/** One live session. */
export interface Session {
  token: string;
  user_id: number;
  customer_id: number;
  /** Emulator clock (ms) of the last request that used the token. */
  lastUsed: number;
}

/** What looking a token up found. */
export type SessionLookup =
  { state: 'valid'; session: Session } | { state: 'expired' } | { state: 'unknown' };

/** Token -> session registry, measured against the emulator clock (so tests can advance time). */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  /** Every token ever issued (expired ones too), so a harness can look for them where they must not be. */
  private readonly issued: string[] = [];

  constructor(private readonly clock: () => EmulatorClock) {}

  /** Opens a session and returns its token. */
  create(user_id: number, customer_id: number): Session {
    const session = { token: randomBytes(20).toString('hex'), user_id, customer_id, lastUsed: this.nowMs() };
    this.sessions.set(session.token, session);
    this.issued.push(session.token);
    return session;
  }

  /** Finds a token; an idle-expired one is dropped and reported as expired. A valid one is refreshed. */
  use(token: string): SessionLookup {
    const session = this.sessions.get(token);
    if (!session) return { state: 'unknown' };
    const now = this.nowMs();
    if (now - session.lastUsed > TOKEN_IDLE_MS) {
      this.sessions.delete(token);
      return { state: 'expired' };
    }
    session.lastUsed = Math.max(session.lastUsed, now);
    return { state: 'valid', session };
  }

  /** Destroys one token (logout); false when it did not exist. */
  destroy(token: string): boolean {
    return this.sessions.delete(token);
  }

  /** Expires every session, or those a predicate selects; returns how many. */
  expireAll(which: (s: Session) => boolean = () => true): number {
    let n = 0;
    for (const [token, s] of this.sessions) {
      if (which(s)) {
        this.sessions.delete(token);
        n++;
      }
    }
    return n;
  }

  /** Every token issued so far, live or not. */
  issuedTokens(): string[] {
    return [...this.issued];
  }

  /** Number of live (not yet expired) sessions. */
  size(): number {
    return this.sessions.size;
  }

  private nowMs(): number {
    return this.clock().now().getTime();
  }
}
