// Codes the real platform would e-mail: two-factor login codes and password-reset tokens. The emulator sends
// no e-mail, so it keeps them here and exposes them through /_emulator/2fa and /_emulator/password-reset.
import { randomBytes, randomInt } from 'node:crypto';
import type { EmulatorClock } from '../../store';

/** How long a two-factor code stays valid (the spec does not say). */
export const TWO_FACTOR_TTL_MS = 10 * 60 * 1000;
/** How long a password-reset token stays valid. */
export const RESET_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

interface TwoFactorChallenge {
  email: string;
  code: string;
  nonce: string;
  expiresAt: number;
}

interface ResetToken {
  email: string;
  token: string;
  expiresAt: number;
}

/** Pending two-factor challenges and password resets, timed by the emulator clock. */
export class PendingCodes {
  private readonly challenges = new Map<string, TwoFactorChallenge>(); // by nonce
  private readonly resets = new Map<string, ResetToken>(); // by token

  constructor(private readonly clock: () => EmulatorClock) {}

  /** Issues a 6-digit code and a nonce for an e-mail. */
  issueTwoFactor(email: string): TwoFactorChallenge {
    const challenge = {
      email,
      code: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      nonce: randomBytes(16).toString('hex'),
      expiresAt: this.nowMs() + TWO_FACTOR_TTL_MS,
    };
    this.challenges.set(challenge.nonce, challenge);
    return challenge;
  }

  /** Consumes a challenge: the e-mail when code and nonce match and are still valid. */
  redeemTwoFactor(code: string, nonce: string): string | undefined {
    const challenge = this.challenges.get(nonce);
    if (!challenge || challenge.code !== code) return undefined;
    this.challenges.delete(nonce);
    return challenge.expiresAt >= this.nowMs() ? challenge.email : undefined;
  }

  /** The newest challenge of an e-mail (control endpoint). */
  latestTwoFactor(email: string): TwoFactorChallenge | undefined {
    return latest([...this.challenges.values()].filter((c) => sameEmail(c.email, email)));
  }

  /** Issues a password-reset token for an e-mail. */
  issueReset(email: string): ResetToken {
    const reset = {
      email,
      token: randomBytes(20).toString('hex'),
      expiresAt: this.nowMs() + RESET_TOKEN_TTL_MS,
    };
    this.resets.set(reset.token, reset);
    return reset;
  }

  /** Consumes a reset token: its e-mail when valid. */
  redeemReset(token: string): string | undefined {
    const reset = this.resets.get(token);
    if (!reset) return undefined;
    this.resets.delete(token);
    return reset.expiresAt >= this.nowMs() ? reset.email : undefined;
  }

  /** The newest reset token of an e-mail (control endpoint). */
  latestReset(email: string): ResetToken | undefined {
    return latest([...this.resets.values()].filter((r) => sameEmail(r.email, email)));
  }

  /** Forgets everything (reseed). */
  clear(): void {
    this.challenges.clear();
    this.resets.clear();
  }

  private nowMs(): number {
    return this.clock().now().getTime();
  }
}

function sameEmail(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Maps keep insertion order, so the last match is the newest. */
function latest<T>(items: T[]): T | undefined {
  return items.at(-1);
}
