// The image's health check (Dockerfile HEALTHCHECK, docker-compose.yml `healthcheck`): exits 0 when
// the URL answers 200, else 1 with the answer on stderr (`docker inspect` shows it). A plain script,
// not a `callsync` command: the check runs every few seconds, and the CLI takes seconds to load.
// Default: the worker's /readyz on CALLSYNC_WORKER_HEALTH_PORT (the image sets 8789).
const url = process.argv[2] ?? `http://127.0.0.1:${process.env.CALLSYNC_WORKER_HEALTH_PORT || '8789'}/readyz`;
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(4_000) });
  const body = await res.text();
  if (!res.ok) {
    process.stderr.write(`${url}: ${res.status} ${body}\n`);
    process.exit(1);
  }
} catch (err) {
  process.stderr.write(`${url}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
