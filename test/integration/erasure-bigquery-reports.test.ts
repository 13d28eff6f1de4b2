// Erasing a person from BigQuery and from binary report files, on the real stack (the platform
// emulator, Temporal, PostgreSQL, the crucible BigQuery emulator, pdftotext): rows that only BigQuery
// still holds (PostgreSQL pruned them, or never had them) are anonymised or deleted in BigQuery, with
// the rows of their calls; an XLSX report naming them is rewritten in place; a PDF one is deleted,
// and built again from the erased warehouse when a report run wrote it (recorded with the command
// that builds it otherwise); `erase --verify` lists each of these before and nothing after, and a
// second erasure finds nothing.
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { formatErasures, runErasure } from '../../cli/commands/erase';
import { verifyErasure } from '../../cli/commands/erase-verify';
import { recentErasures } from '../../connectors/postgres';
import { reportExportWorkflow, syncStreamWorkflow } from '../../contracts';
import { erasedToken, identifierHash, parseSubject } from '../../lib/erasure/identity';
import { erasureHashKey } from '../../lib/encryption-keys';
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
const FOREIGN_CDR = 990_000_004;

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
  // Written by hand (no report run): deleted, with a note.
  const notesPdf = () => join(reports, 'acme', 'notes.pdf');
  const otherPdf = () => join(reports, 'acme', 'others.pdf');
  // Damaged: pdftotext refuses it. Left, listed as not searched, and no reason for the erasure to fail.
  const brokenPdf = () => join(reports, 'acme', 'broken.pdf');
  // Written by report run `month` of schedule 7 (missed calls, PDF): built again after the erasure.
  let month: string;
  let runPdf: string;
  let runId: number;

  async function writePdf(path: string, lines: string[]): Promise<void> {
    const pdf = new PDFDocument();
    const out = createWriteStream(path);
    pdf.pipe(out);
    for (const line of lines) pdf.text(line);
    pdf.end();
    await once(out, 'finish');
  }

  it('finds the person in BigQuery rows PostgreSQL does not hold, and in XLSX and PDF reports', async () => {
    // Their missed call, synced to PostgreSQL and BigQuery alike.
    const [cdr] = h.emulator.store.addCdrs(customer(), 1);
    tables().cdrs.update(cdr!.id, {
      type: 'M',
      src: '07911123456',
      src_name: NAME,
      clid: `"${NAME}" <07911123456>`,
      dst: '101',
      billsec: 0,
      duration: 20,
      disposition: 'RINGING',
    });
    for (const stream of ['cdrs', 'recordings']) await sync(stream);
    const synced = await bigqueryRows('cdrs');
    expect(synced.filter((r) => tracesIn(r.doc).includes('number'))).toHaveLength(1);

    // Rows PostgreSQL has pruned: a CDR of another call of theirs (a whole platform record), the
    // recording of that call (its transcript names no number), a row whose record no longer parses
    // as a CDR, and a row whose record does not hold the number its column does (written by
    // something other than callsync).
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
        `('acme', ${BROKEN_CDR}, NULL, '+44 7911 123456', NULL, NULL, ${json({ src: '+44 7911 123456' })}), ` +
        `('acme', ${FOREIGN_CDR}, NULL, '07911 123456', NULL, NULL, ${json({ ...rawCdr, id: FOREIGN_CDR, live_id: 1, src: '101', src_name: 'Reception', clid: '101' })})`,
    );
    await target.rows(
      `INSERT INTO ${table('recordings')} (account, id, live_id, transcript, summary, raw) VALUES ` +
        `('acme', ${ONLY_RECORDING}, ${ONLY_CALL}, 'Caller: about order 7-ZOMBIQUOKKA', 'order ZOMBIQUOKKA', ${json(rawRecording)})`,
    );
    const pg = await h.deps.warehouse.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM cdrs WHERE id = ANY($1::bigint[])',
      [[ONLY_CDR, BROKEN_CDR, FOREIGN_CDR]],
    );
    expect(pg.rows[0]!.n).toBe(0);

    // Reports: the missed-calls PDF of their call's month, as a report run writes it; a workbook
    // listing them (their number typed as a number); a PDF written by hand that names them, and one
    // that does not.
    month = String(tables().cdrs.get(cdr!.id)!.row.calldate).slice(0, 7);
    await h.deps.warehouse.db
      .insertInto('report_schedules')
      .values({
        account: 'acme',
        id: 7,
        raw: '{}',
        name: 'Missed calls',
        report_id: 2,
        format: '0',
        culture: '1',
        status: '1',
        timezone: 'UTC',
        frequency: JSON.stringify({
          type: 'monthly',
          time_of_day: ['06:00'],
          day_of_week: [],
          day_of_month: [1],
        }),
      })
      .execute();
    const exported = await h.client.workflow.execute(reportExportWorkflow, {
      taskQueue: h.taskQueue,
      workflowId: 'erasure-bq-report-7',
      args: [{ account: 'acme', scheduleId: 7, period: { period: month } }],
    });
    expect(exported.outcome).toBe('built');
    runId = exported.runId;
    const [runRow] = await h.deps.warehouse.db
      .selectFrom('report_runs')
      .select(['file_path'])
      .where('id', '=', runId)
      .execute();
    runPdf = runRow!.file_path!;
    expect(runPdf).toMatch(/schedule-7\/.*\.pdf$/);
    expect(tracesIn((await run('pdftotext', ['-layout', runPdf, '-'])).stdout)).toEqual(['number', 'name']);

    mkdirSync(join(reports, 'acme'), { recursive: true });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Calls');
    sheet.addRow(['caller', 'name', 'minutes']);
    sheet.addRow([447911123456, NAME, 3]);
    sheet.addRow(['+44 20 7946 0018', 'Bob Jones', 5]);
    sheet.addRow([{ richText: [{ text: 'Note: ' }, { text: `${NAME} rang 07911 123456` }] }]);
    await book.xlsx.writeFile(xlsxFile());
    await writePdf(notesPdf(), [
      'Calls, November 2026',
      `07911 123456   ${NAME}   3 min`,
      '+44 20 7946 0018   Bob Jones',
    ]);
    await writePdf(otherPdf(), ['Calls, November 2026', '+44 20 7946 0018   Bob Jones   5 min']);
    writeFileSync(brokenPdf(), '%PDF-1.7\n(07911 123456) truncated');

    const before = await verify();
    expect(before.unread).toEqual([brokenPdf()]);
    for (const place of [
      /^bigquery\.warehouse\.cdrs: 4 rows$/,
      /^reports\.files: .*calls-2026-11\.xlsx$/,
      /^reports\.files: .*schedule-7\/.*\.pdf$/,
      /^reports\.files: .*notes\.pdf$/,
    ]) {
      expect(before.left).toContainEqual(expect.stringMatching(place));
    }
    expect(before.left.filter((l) => l.includes('others.pdf'))).toEqual([]);
    const cli = await verifyCli();
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/^ {2}bigquery\.warehouse\.cdrs: 4 rows$/m);
    expect(cli.stdout).toMatch(/^not searched \(.*\): 1\n {2}.*broken\.pdf$/m);
  });

  it('erases them from every BigQuery table and every report file, and builds the run PDF again', async () => {
    const cdrsBefore = (await bigqueryRows('cdrs')).length;
    const result = await runErasure(h.config, h.deps.warehouse, h.client, { number: '07911 123456' });
    expect(result.counts).toMatchObject({
      'warehouse.cdrs.anonymised': 1,
      // Their synced CDR and the one only BigQuery held; the rows whose record cannot be rebuilt
      // without them (broken, or not holding what named them) are deleted.
      'bigquery.warehouse.cdrs.anonymised': 2,
      'bigquery.warehouse.cdrs.deleted': 2,
      // The recording of the call only BigQuery knew: theirs through the call, not a number.
      'bigquery.warehouse.recordings.anonymised': expect.any(Number),
      'reports.files.rewritten': 1,
      'reports.files.deleted': 2,
      'reports.files.rebuilt': 1,
    });
    expect(result.removed).toEqual(
      expect.arrayContaining([
        {
          file: runPdf,
          regenerate: `callsync reports run report-acme-7 --period ${month} --force`,
          runId,
          rebuilt: true,
        },
        { file: notesPdf(), regenerate: expect.stringMatching(/^no report run wrote it/) },
      ]),
    );
    expect(result.removed).toHaveLength(2);

    const token = erasedToken(identifierHash(erasureHashKey(h.config), 'number', E164));
    for (const name of ['cdrs', 'recordings']) {
      const rows = await bigqueryRows(name);
      expect(rows.filter((r) => tracesIn(r.doc).length > 0)).toEqual([]);
    }
    const cdrs = await bigqueryRows('cdrs');
    expect(cdrs).toHaveLength(cdrsBefore - 2);
    const only = cdrs.find((r) => r.id === ONLY_CDR);
    expect(JSON.parse(only!.doc)).toMatchObject({ src: token, src_name: null, live_id: ONLY_CALL });
    expect(cdrs.find((r) => r.id === BROKEN_CDR)).toBeUndefined();
    expect(cdrs.find((r) => r.id === FOREIGN_CDR)).toBeUndefined();
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
    // The run's PDF, built again from the erased warehouse: their missed call is still a row, without them.
    const rebuilt = (await run('pdftotext', ['-layout', runPdf, '-'])).stdout;
    expect(tracesIn(rebuilt)).toEqual([]);
    expect(rebuilt).toContain('erased:');
    expect(existsSync(notesPdf())).toBe(false);
    expect(existsSync(otherPdf())).toBe(true);
    expect(readdirSync(join(reports, 'acme')).filter((f) => f.endsWith('.erasing'))).toEqual([]);

    // `erase --status` says which file went and how to build it again.
    const shown = formatErasures(await recentErasures(h.deps.warehouse.db));
    expect(shown).toContain(`rebuilt ${runPdf} (report run ${runId}) from the erased warehouse`);
    expect(shown).toContain(`removed ${notesPdf()}: no report run wrote it`);
    expect(tracesIn(shown)).toEqual([]);

    expect(await verify()).toEqual({ left: [], unread: [brokenPdf()] });
    expect(existsSync(brokenPdf())).toBe(true);
    const cli = await verifyCli();
    expect({ status: cli.status, stdout: cli.stdout }).toMatchObject({ status: 0, stdout: /^nothing left/ });
  });

  it('erasing again finds nothing in BigQuery or the reports and still succeeds', async () => {
    const again = await runErasure(h.config, h.deps.warehouse, h.client, { number: E164 });
    expect(again.counts).toEqual({});
    expect(again.removed).toBeUndefined();
  });
});
