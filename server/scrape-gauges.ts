// The gauges the server's /metrics reads from PostgreSQL at each scrape: the inbox backlog and relay
// lag, and what the alert rules watch (monitoring/alerts.yml): the archive backlog, open quarantined
// records and when each stream last synced. Read from the database, not counted in a process: they
// hold across restarts and are the same whichever worker did the work.
import type { Kysely } from 'kysely';
import type pg from 'pg';
import {
  archiveBacklogCounts,
  inboxBacklog,
  lastSuccessfulRuns,
  openQuarantineByStream,
  type Database,
} from '../connectors/postgres';
import type { CallsyncMetrics } from '../lib/metrics';
import { STREAMS } from '../sync/streams';

/** history or settings: how often the stream is synced (an unknown name counts as history). */
function kindOf(stream: string): string {
  return (STREAMS as Record<string, { kind: string } | undefined>)[stream]?.kind ?? 'history';
}

export interface ScrapeGaugeSources {
  pool: pg.Pool;
  db: Kysely<Database>;
  /** archive.maxAge: audio recorded earlier is never archived, so it is no backlog. */
  archiveMaxAgeMs?: number | undefined;
}

/** Sets every database-read gauge of `m`; resolves once all are set. */
export async function readScrapeGauges(m: CallsyncMetrics, src: ScrapeGaugeSources): Promise<void> {
  const since = src.archiveMaxAgeMs === undefined ? undefined : new Date(Date.now() - src.archiveMaxAgeMs);
  const [backlog, archive, quarantine, runs] = await Promise.all([
    inboxBacklog(src.pool),
    archiveBacklogCounts(src.db, since),
    openQuarantineByStream(src.db),
    lastSuccessfulRuns(src.db),
  ]);
  m.inboxBacklog.set(backlog.pending);
  m.relayLag.set(backlog.oldestAgeSeconds);
  for (const { stream, n } of archive) m.archiveBacklog.set({ stream }, n);
  // Every stream that has synced reads 0 when nothing of it is quarantined (a resolved quarantine
  // drops to 0, not to its last count), so the first quarantined record is growth an alert sees.
  m.quarantineOpen.reset();
  for (const r of runs) m.quarantineOpen.set({ account: r.account, stream: r.stream }, 0);
  for (const r of quarantine) m.quarantineOpen.set({ account: r.account, stream: r.stream }, r.n);
  for (const r of runs) {
    const labels = { account: r.account, stream: r.stream, kind: kindOf(r.stream) };
    m.streamLastSuccess.set(labels, new Date(r.finished).getTime() / 1000);
  }
}
