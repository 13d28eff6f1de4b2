// Readiness (/readyz) of the server and the worker: named checks run together, each with a deadline,
// and an answer that says which are failing. The answer is served to anyone who can reach the port,
// so it names checks and carries only a short error code, never an error's message: a PostgreSQL or
// gRPC message can hold a host, a user or a whole connection string.

/** One thing a process needs to do its job; `probe` throws (or times out) when it is not there. */
export interface ReadinessCheck {
  name: string;
  probe: () => Promise<void>;
}

/** How each check went: `ok`, or a short reason (`timeout`, an error code such as ECONNREFUSED). */
export interface Readiness {
  ready: boolean;
  checks: Record<string, string>;
  /** The names of the checks that failed (empty when ready). */
  failing: string[];
}

/** Longest a probe may take before it counts as failed: under the image's health-check timeout. */
export const PROBE_TIMEOUT_MS = 2_000;

/** A reason safe to serve: a code made only of capitals, digits and _ (ECONNREFUSED, 57P01), else `unavailable`. */
export function safeReason(err: unknown): string {
  if (err instanceof ProbeTimeout) return 'timeout';
  if (err instanceof NotReady) return err.reason;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  return 'unavailable';
}

/** A probe's own verdict, with a fixed reason written for the answer (e.g. `not polling`). */
export class NotReady extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NotReady';
  }
}

class ProbeTimeout extends Error {}

async function withDeadline(probe: () => Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), ms);
  });
  try {
    await Promise.race([probe(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check at once; `onFailure` hears each failure with its full error (for the log). */
export async function checkReadiness(
  checks: readonly ReadinessCheck[],
  opts: { timeoutMs?: number; onFailure?: (name: string, err: unknown) => void } = {},
): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async (c): Promise<[string, string]> => {
      try {
        await withDeadline(c.probe, opts.timeoutMs ?? PROBE_TIMEOUT_MS);
        return [c.name, 'ok'];
      } catch (err) {
        opts.onFailure?.(c.name, err);
        return [c.name, safeReason(err)];
      }
    }),
  );
  const failing = results.filter(([, r]) => r !== 'ok').map(([name]) => name);
  return { ready: failing.length === 0, checks: Object.fromEntries(results), failing };
}

/** The JSON body of /readyz: 200 `{status: 'ready', checks}` or 503 `{status: 'not ready', failing, checks}`. */
export function readinessBody(r: Readiness): {
  status: string;
  failing?: string[];
  checks: Record<string, string>;
} {
  return r.ready
    ? { status: 'ready', checks: r.checks }
    : { status: 'not ready', failing: r.failing, checks: r.checks };
}
