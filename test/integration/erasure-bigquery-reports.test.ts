// Erasing a person from BigQuery and from binary report files, on the real stack (the platform
// emulator, Temporal, PostgreSQL, the crucible BigQuery emulator, pdftotext): rows that only BigQuery
// still holds (PostgreSQL pruned them, or never had them) are anonymised or deleted in BigQuery, with
// the rows of their calls; an XLSX report naming them is rewritten in place and a PDF one is deleted
// and recorded with the command that builds it again; `erase --verify` lists each of these before
// and nothing after, and a second erasure finds nothing.
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { formatErasures, runErasure } from '../../cli/commands/erase';
import { verifyErasure } from '../../cli/commands/erase-verify';
import { recentErasures } from '../../connectors/postgres';
import { syncStreamWorkflow } from '../../contracts';
import { erasedToken, identifierHash, parseSubject } from '../../lib/erasure/identity';
import { erasureHashKey } from '../../runtime/temporal-encryption';
import {
  startBigQueryTarget,
  BQ_DATASET,
  BQ_PROJECT,
  type BigQueryTestTarget,
} from '../support/bigquery-harness';
import { cliCommand, cliEnv, root } from './cli-process';
import { startSyncHarness, type SyncHarness } from './sync-harness';

jest.setTimeout(300_000);

const E164 = '+447911123456';
const NAME = 'Alice Liddell';
// Written by hand, not with the product's helpers: the national digits with any separators.
const TRACES: [string, RegExp][] = [
  ['number', new RegExp([...'7911123456'].join('[^0-9]{0,4}'))],
  ['name', /liddell/i],
  ['transcript', /zombiquokka/i],
];
const tracesIn = (text: string): string[] => TRACES.filter(([, re]) => re.test(text)).map(([what]) => what);

// Rows only BigQuery holds: ids far above the emulator's.
const ONLY_CDR = 990_000_001;
const ONLY_CALL = 880_000_001;
const BROKEN_CDR = 990_000_002;
const ONLY_RECORDING = 990_000_003;

const run = promisify(execFile);

describe('callsync erase: BigQuery and binary report files', () => {
  let target: BigQueryTestTarget;
  let h: SyncHarness;
  let reports: string;
  const table = (name: string) => `\`${BQ_PROJECT}.${BQ_DATASET}.${name}\``;
  const customer = () => h.emulator.admin.customer_id;
  const tables = () => h.emulator.store.tables;

  beforeAll(async () => {
    // PDFs are read with pdftotext: without it the erasure fails, so the test says how to get it.
    await run('pdftotext', ['-v']).catch((err: unknown) => {
      throw new Error(
        `pdftotext is missing: install Debian package poppler-utils (bash scripts/debian-packages.sh): ${String(err)}`,
      );
    });
    target = await startBigQueryTarget();
    reports = mkdtempSync(join(tmpdir(), 'erasure-bq-reports-'));
    h = await startSyncHarness({
      label: 'erasure-bq',
      cdrs: 40,
      config: {
        warehouse: target.config,
        reports: { directory: reports },
        archive: { dir: mkdtempSync(join(tmpdir(), 'erasure-bq-audio-')), maxAge: '1h' },
      },
    });
  }, 180_000);

  afterAll(async () => {
    await h?.close();
    await target?.crucible.stop();
  });

  let syncs = 0;
  const sync = (stream: string) =>
    h.client.workflow.execute(syncStreamWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: `erasure-bq-sync-${stream}-${++syncs}`,
      args: [{ account: 'acme', stream }],
    });

  const verify = () =>
    verifyErasure(h.config, h.deps.warehouse, h.client, parseSubject({ number: E164 }, 'GB'));
  const verifyCli = () => {
    const [cmd, argv] = cliCommand(['--config', h.configFile, 'erase', '--verify', '07911 123456']);
    return new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = spawn(cmd, argv, { cwd: root, env: cliEnv() });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('close', (status) => resolve({ status, stdout }));
    });
  };

  /** Every row of a BigQuery table, each as one JSON text of all its columns. */
  const bigqueryRows = async (name: string) =>
    (await target.rows(`SELECT id, TO_JSON_STRING(t) AS doc FROM ${table(name)} AS t ORDER BY id`)).map(
      (r) => ({ id: Number(r.id), doc: String(r.doc) }),
    );

  const xlsxFile = () => join(reports, 'acme', 'calls-2026-11.xlsx');
  const pdfFile = () => join(reports, 'acme', 'schedule-7', '2026-11.pdf');
  const otherPdf = () => join(reports, 'acme', 'schedule-8', '2026-11.pdf');

  async function writePdf(path: string, lines: string[]): Promise<void> {
    const pdf = new PDFDocument();
    const out = createWriteStream(path);
    pdf.pipe(out);
    for (const line of lines) pdf.text(line);
    pdf.end();
    await once(out, 'finish');
  }

  it('finds the person in BigQuery rows PostgreSQL does not hold, and in XLSX and PDF reports', async () => {
    // Their call, synced to PostgreSQL and BigQuery alike.
    const [cdr] = h.emulator.store.addCdrs(customer(), 1);
    tables().cdrs.update(cdr!.id, { src: '07911123456', src_name: NAME, clid: `"${NAME}" <07911123456>` });
    for (const stream of ['cdrs', 'recordings']) await sync(stream);
    const synced = await bigqueryRows('cdrs');
    expect(synced.filter((r) => tracesIn(r.doc).includes('number'))).toHaveLength(1);

    // Rows PostgreSQL has pruned: a CDR of another call of theirs (a whole platform record), the
    // recording of that call (its transcript names no number), and a row whose record no longer
    // parses as a CDR.
    const rawCdr = {
      ...tables().cdrs.get(cdr!.id)!.row,
      id: ONLY_CDR,
      live_id: ONLY_CALL,
      src: '447911123456',
      src_name: NAME,
      clid: `"${NAME}" <447911123456>`,
    };
    const [monitor] = (
      await target.rows(`SELECT TO_JSON_STRING(raw) AS raw FROM ${table('recordings')} LIMIT 1`)
    ).map((r) => JSON.parse(String(r.raw)) as Record<string, unknown>);
    expect(monitor).toBeDefined();
    const rawRecording = {
      ...monitor,
      id: ONLY_RECORDING,
      live_id: ONLY_CALL,
      transcript: 'Caller: about order 7-ZOMBIQUOKKA',
      summary: 'order ZOMBIQUOKKA',
    };
    const json = (v: unknown) =>
      `PARSE_JSON('${JSON.stringify(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}')`;
    await target.rows(
      `INSERT INTO ${table('cdrs')} (account, id, live_id, src, src_name, clid, raw) VALUES ` +
        `('acme', ${ONLY_CDR}, ${ONLY_CALL}, '447911123456', '${NAME}', '"${NAME}" <447911123456>', ${json(rawCdr)}), ` +
        `('acme', ${BROKEN_CDR}, NULL, '+44 7911 123456', NULL, NULL, ${json({ src: '+44 7911 123456' })})`,
    );
    await target.rows(
      `INSERT INTO ${table('recordings')} (account, id, live_id, transcript, summary, raw) VALUES ` +
        `('acme', ${ONLY_RECORDING}, ${ONLY_CALL}, 'Caller: about order 7-ZOMBIQUOKKA', 'order ZOMBIQUOKKA', ${json(rawRecording)})`,
    );
    const pg = await h.deps.warehouse.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM cdrs WHERE id = ANY($1::bigint[])',
      [[ONLY_CDR, BROKEN_CDR]],
    );
    expect(pg.rows[0]!.n).toBe(0);

    // Reports: a workbook listing them (their number typed as a number), a PDF that names them
    // (written by report run 2026-11 of schedule 7), and a PDF that does not.
    mkdirSync(join(reports, 'acme', 'schedule-7'), { recursive: true });
    mkdirSync(join(reports, 'acme', 'schedule-8'), { recursive: true });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Calls');
    sheet.addRow(['caller', 'name', 'minutes']);
    sheet.addRow([447911123456, NAME, 3]);
    sheet.addRow(['+44 20 7946 0018', 'Bob Jones', 5]);
    sheet.addRow([{ richText: [{ text: 'Note: ' }, { text: `${NAME} rang 07911 123456` }] }]);
    await book.xlsx.writeFile(xlsxFile());
    await writePdf(pdfFile(), [
      'Calls, November 2026',
      `07911 123456   ${NAME}   3 min`,
      '+44 20 7946 0018   Bob Jones',
    ]);
    await writePdf(otherPdf(), ['Calls, November 2026', '+44 20 7946 0018   Bob Jones   5 min']);
    await h.deps.warehouse.db
      .insertInto('report_runs')
      .values({
        account: 'acme',
        schedule_id: 7,
        period_from: new Date('2026-11-01T00:00:00Z'),
        period_to: new Date('2026-12-01T00:00:00Z'),
        period_label: '2026-11',
        timezone: 'UTC',
        format: 'pdf',
        status: 'succeeded',
        file_path: pdfFile(),
      })
      .execute();

    const before = await verify();
    expect(before.unread).toEqual([]);
    for (const place of [
      /^bigquery\.warehouse\.cdrs: 3 rows$/,
      /^reports\.files: .*calls-2026-11\.xlsx$/,
      /^reports\.files: .*schedule-7\/2026-11\.pdf$/,
    ]) {
      expect(before.left).toContainEqual(expect.stringMatching(place));
    }
    expect(before.left.filter((l) => l.includes('schedule-8'))).toEqual([]);
    const cli = await verifyCli();
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/^ {2}bigquery\.warehouse\.cdrs: 3 rows$/m);
    expect(cli.stdout).not.toMatch(/not searched \(/);
  });

  it('erases them from every BigQuery table and every report file, and says how to rebuild the PDF', async () => {
    const cdrsBefore = (await bigqueryRows('cdrs')).length;
    const result = await runErasure(h.config, h.deps.warehouse, h.client, { number: '07911 123456' });
    expect(result.counts).toMatchObject({
      'warehouse.cdrs.anonymised': 1,
      // Their synced CDR and the one only BigQuery held; the broken row cannot be rebuilt: deleted.
      'bigquery.warehouse.cdrs.anonymised': 2,
      'bigquery.warehouse.cdrs.deleted': 1,
      // The recording of the call only BigQuery knew: theirs through the call, not a number.
      'bigquery.warehouse.recordings.anonymised': expect.any(Number),
      'reports.files.rewritten': 1,
      'reports.files.deleted': 1,
    });
    expect(result.removed).toEqual([
      { file: pdfFile(), regenerate: 'callsync reports run report-acme-7 --period 2026-11 --force' },
    ]);

    const token = erasedToken(identifierHash(erasureHashKey(h.config), 'number', E164));
    for (const name of ['cdrs', 'recordings']) {
      const rows = await bigqueryRows(name);
      expect(rows.filter((r) => tracesIn(r.doc).length > 0)).toEqual([]);
    }
    const cdrs = await bigqueryRows('cdrs');
    expect(cdrs).toHaveLength(cdrsBefore - 1);
    const only = cdrs.find((r) => r.id === ONLY_CDR);
    expect(JSON.parse(only!.doc)).toMatchObject({ src: token, src_name: null, live_id: ONLY_CALL });
    expect(cdrs.find((r) => r.id === BROKEN_CDR)).toBeUndefined();
    const recording = (await bigqueryRows('recordings')).find((r) => r.id === ONLY_RECORDING);
    expect(JSON.parse(recording!.doc)).toMatchObject({ transcript: null, summary: null });

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsxFile());
    const values = book
      .getWorksheet('Calls')!
      .getSheetValues()
      .slice(1)
      .map((r) => (r as unknown[]).slice(1));
    expect(values).toEqual([
      ['caller', 'name', 'minutes'],
      [token, '[erased]', 3],
      ['+44 20 7946 0018', 'Bob Jones', 5],
      [{ richText: [{ text: 'Note: ' }, { text: `[erased] rang ${token}` }] }],
    ]);
    expect(existsSync(pdfFile())).toBe(false);
    expect(existsSync(otherPdf())).toBe(true);
    expect(readdirSync(join(reports, 'acme')).filter((f) => f.endsWith('.erasing'))).toEqual([]);

    // `erase --status` says which file went and how to build it again.
    const shown = formatErasures(await recentErasures(h.deps.warehouse.db));
    expect(shown).toContain(
      `removed ${pdfFile()}: callsync reports run report-acme-7 --period 2026-11 --force`,
    );
    expect(tracesIn(shown)).toEqual([]);

    expect(await verify()).toEqual({ left: [], unread: [] });
    const cli = await verifyCli();
    expect({ status: cli.status, stdout: cli.stdout }).toMatchObject({ status: 0, stdout: /^nothing left/ });
  });

  it('erasing again finds nothing in BigQuery or the reports and still succeeds', async () => {
    const again = await runErasure(h.config, h.deps.warehouse, h.client, { number: E164 });
    expect(again.counts).toEqual({});
    expect(again.removed).toBeUndefined();
  });
});
