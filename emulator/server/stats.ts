// Request counts per route template; benchmarks read them to report how many API requests a sync made.
// The latest requests' arrival times too: tests read them to check a rate limit held.

/** Snapshot returned by GET /_emulator/stats. */
export interface StatsSnapshot {
  requests: number;
  by_route: Record<string, number>;
}

/** One API request as it arrived (wall-clock milliseconds, whatever the emulator's own clock says). */
export interface LoggedRequest {
  at: number;
  route: string;
}

/** Requests kept in the log; older ones are dropped (counts stay exact). */
const LOG_SIZE = 100_000;

/** Counts API requests (control endpoints excluded) by 'METHOD /template'. */
export class RequestStats {
  private total = 0;
  private byRoute = new Map<string, number>();
  private log: LoggedRequest[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one request. */
  record(routeKey: string): void {
    this.total++;
    this.byRoute.set(routeKey, (this.byRoute.get(routeKey) ?? 0) + 1);
    if (this.log.length >= LOG_SIZE) this.log = this.log.slice(LOG_SIZE / 2);
    this.log.push({ at: this.now(), route: routeKey });
  }

  /** The latest requests (at most LOG_SIZE), oldest first. */
  requests(): readonly LoggedRequest[] {
    return this.log;
  }

  /** The counts so far. */
  snapshot(): StatsSnapshot {
    return {
      requests: this.total,
      by_route: Object.fromEntries([...this.byRoute].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  /** Starts counting from zero. */
  reset(): void {
    this.total = 0;
    this.byRoute = new Map();
    this.log = [];
  }
}
