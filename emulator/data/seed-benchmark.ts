// Seeds a store and times a 5000-row calldate-range page; prints one JSON line.
// Run: node --expose-gc -r tsx/cjs emulator/data/seed-benchmark.ts [cdrs]   (default 1,000,000)
import { createStore } from '../store';

function main(): void {
  const cdrs = Number(process.argv[2] ?? 1_000_000);
  const t0 = performance.now();
  const store = createStore({ seed: 42, cdrs });
  const seedMs = performance.now() - t0;
  // Twice: garbage of the seeding survives the first full GC (seen as ~150 bytes a CDR).
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  const timings: number[] = [];
  let total = 0;
  for (let page = 1; page <= 5; page++) {
    const t = performance.now();
    const r = store.tables.cdrs.query(1, {
      page,
      limit: 5000,
      filter: [
        { property: 'calldate', operator: 'gte', value: '2026-07-01 00:00:00' },
        { property: 'calldate', operator: 'lt', value: '2026-08-01 00:00:00' },
      ],
    });
    timings.push(performance.now() - t);
    total = r.total;
  }
  const t = performance.now();
  const scan = store.tables.cdrs.query(1, {
    page: 1,
    limit: 5000,
    filter: [{ property: 'src', operator: 'like', value: '+44%' }],
  });
  const scanMs = performance.now() - t;
  console.log(
    JSON.stringify({
      bench: 'emulator-seed',
      cdrs,
      seed_ms: Math.round(seedMs),
      heap_mb: Math.round(mem.heapUsed / 1e6),
      rss_mb: Math.round(mem.rss / 1e6),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1e3),
      monitors: store.tables.monitors.count(1),
      range_total: total,
      range_page_ms_max: Number(Math.max(...timings).toFixed(2)),
      like_scan_ms: Math.round(scanMs),
      like_scan_total: scan.total,
    }),
  );
}

main();
