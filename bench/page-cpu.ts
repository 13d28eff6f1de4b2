// `npx tsx bench/page-cpu.ts <page.json> [iterations]`: CPU time per row of each stage the worker
// runs on one page of a backfill (JSON.parse, envelope and record schemas, row mapping, COPY
// text), on a saved collection response (e.g. `curl …/cdrs?limit=5000 > page.json` against the
// emulator). Measures process CPU time (user + system), so it is robust to other load on the
// machine (use a few runs: a loaded machine still inflates it). Record parsing as the Paginator does
// it (bulkSchema); NO_COMPILE=1 parses with the plain schema, ZOD_COMPILE=1 with z.compile(schema).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { collectionEnvelope } from '../connectors/platform/schemas';
import { bulkSchema } from '../connectors/platform/schemas/fast-parse';
import { cdrSchema } from '../connectors/platform/schemas/history';
import { copyEncoder, streamTable } from '../connectors/postgres';
import { encodePageChunks, preparePage } from '../connectors/postgres/bulk-upsert';

const file = process.argv[2];
if (!file) throw new Error('usage: bench/page-cpu.ts <page.json> [iterations]');
const iterations = Number(process.argv[3] ?? 40);
const text = readFileSync(file, 'utf8');

const envelope = collectionEnvelope(z.unknown());
const compiled = process.env.NO_COMPILE
  ? cdrSchema
  : process.env.ZOD_COMPILE
    ? z.compile(cdrSchema)
    : bulkSchema(cdrSchema);
const spec = streamTable('cdrs');
const encode = copyEncoder('cdrs');

type Stage = 'json' | 'envelope' | 'records' | 'map' | 'encode';
const totals: Record<Stage, number> = { json: 0, envelope: 0, records: 0, map: 0, encode: 0 };
let rowsTotal = 0;
let bytes = 0;

function cpu(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function round(measure: boolean): void {
  let t = cpu();
  const lap = (stage: Stage) => {
    const now = cpu();
    if (measure) totals[stage] += now - t;
    t = now;
  };
  const body: unknown = JSON.parse(text);
  lap('json');
  const env = envelope.safeParse(body);
  if (!env.success) throw new Error('envelope');
  lap('envelope');
  const data: unknown[] = [];
  const raw: unknown[] = [];
  for (const item of env.data.data) {
    const parsed = compiled.safeParse(item);
    if (parsed.success) {
      data.push(parsed.data);
      raw.push(item);
    }
  }
  lap('records');
  const records = data.map((record, i) => ({ record, raw: raw[i] })) as never[];
  const page = preparePage(spec, 'bench', records);
  lap('map');
  for (const chunk of encodePageChunks(encode, 'bench', page.rows)) bytes += chunk.length;
  lap('encode');
  if (measure) rowsTotal += page.rows.length;
}

for (let i = 0; i < 5; i++) round(false);
const t0 = cpu();
for (let i = 0; i < iterations; i++) round(true);
const all = cpu() - t0;
const per = (us: number) => Number((us / rowsTotal).toFixed(2));
process.stdout.write(
  `${JSON.stringify({
    rows: rowsTotal,
    us_per_row: per(all),
    json: per(totals.json),
    envelope: per(totals.envelope),
    records: per(totals.records),
    map: per(totals.map),
    encode: per(totals.encode),
    copy_bytes_per_row: Math.round(bytes / rowsTotal),
  })}\n`,
);
