// Request counts per route template; benchmarks read them to report how many API requests a sync made.

/** Snapshot returned by GET /_emulator/stats. */
export interface StatsSnapshot {
  requests: number;
  by_route: Record<string, number>;
}

/** Counts API requests (control endpoints excluded) by 'METHOD /template'. */
export class RequestStats {
  private total = 0;
  private byRoute = new Map<string, number>();

  /** Counts one request. */
  record(routeKey: string): void {
    this.total++;
    this.byRoute.set(routeKey, (this.byRoute.get(routeKey) ?? 0) + 1);
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
  }
}
