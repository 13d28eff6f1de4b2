// The Drive and Sheets connectors through the official clients against the local Google server
// (test/fakes/google): key lookup before upload, multipart and resumable uploads, a tab per period
// rewritten in place, Google's errors classified, and the self-signed service account JWT verified.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoogleAuth } from 'google-auth-library';
import { googleAuthClient } from '../../connectors/google/credentials';
import { DRIVE_SCOPES, DriveFiles } from '../../connectors/google/drive';
import { classifyGoogleError } from '../../connectors/google/errors';
import { SheetsReports, SHEETS_SCOPES, spreadsheetPartKey } from '../../connectors/google/sheets';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';

let google: FakeGoogle;
let dir: string;
let driveFiles: DriveFiles;

async function* rows(n: number, offset = 0): AsyncGenerator<unknown[]> {
  for (let i = 0; i < n; i += 1)
    yield [`agent ${i + offset}`, i * 2, i % 2 === 0, null, new Date(Date.UTC(2026, 9, 1 + (i % 28)))];
}

beforeAll(async () => {
  google = await startFakeGoogle();
  google.drive.addFolder('reports-folder', { sharedDrive: 'reports-drive' });
  dir = await mkdtemp(join(tmpdir(), 'callsync-drive-'));
  const auth = await googleAuthClient(
    { serviceAccountJson: google.serviceAccountJson, selfSignedJwt: true },
    [...DRIVE_SCOPES, ...SHEETS_SCOPES],
  );
  driveFiles = new DriveFiles(auth, {
    rootUrl: google.rootUrl,
    resumableAbove: 512 * 1024,
    chunkBytes: 256 * 1024,
  });
});
afterAll(async () => {
  await google.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Drive', () => {
  it('uploads a small file in one multipart request, and finds it by its key instead of uploading again', async () => {
    const path = join(dir, 'small.csv');
    await writeFile(path, 'agent,calls\nAda,3\n');
    const input = {
      folderId: 'reports-folder',
      key: 'report-1-drive',
      name: 'daily-2026-10-01.csv',
      mimeType: 'text/csv',
      source: { path, size: 18 },
    };
    const first = await driveFiles.ensureUploaded(input);
    expect(first.uploaded).toBe(true);
    expect(
      google.requests.filter((r) => r.path === '/upload/drive/v3/files').map((r) => r.query.uploadType),
    ).toEqual(['multipart']);
    const again = await driveFiles.ensureUploaded(input);
    expect(again).toEqual({ file: first.file, uploaded: false });
    const stored = google.drive.files.get(first.file.id);
    expect(stored?.content.toString()).toBe('agent,calls\nAda,3\n');
    expect(stored?.appProperties).toEqual({ callsyncKey: 'report-1-drive' });
    expect(first.file.webViewLink).toMatch(/^https:\/\/drive\.google\.com\/file\/d\//);
    expect(google.drive.files.size).toBe(1);
  });

  it('uploads a large file with the resumable protocol in 256 KiB chunks, bytes intact', async () => {
    const bytes = Buffer.alloc(900 * 1024);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 7919) % 251;
    const path = join(dir, 'large.xlsx');
    await writeFile(path, bytes);
    const before = google.requests.length;
    const { file } = await driveFiles.ensureUploaded({
      folderId: 'reports-folder',
      key: 'report-2-drive',
      name: 'large.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      source: { path, size: bytes.length },
    });
    const uploads = google.requests.slice(before).filter((r) => r.path === '/upload/drive/v3/files');
    expect(uploads.map((r) => `${r.method} ${r.status}`)).toEqual([
      'POST 200',
      'PUT 308',
      'PUT 308',
      'PUT 308',
      'PUT 200',
    ]);
    expect(google.drive.files.get(file.id)?.content.equals(bytes)).toBe(true);
    expect(file.size).toBe(bytes.length);
  });

  it('names a missing folder as a permanent 404 and a 429 as retryable', async () => {
    const missing = await driveFiles
      .upload({
        folderId: 'nope',
        key: 'k',
        name: 'x.csv',
        mimeType: 'text/csv',
        source: { path: join(dir, 'small.csv'), size: 18 },
      })
      .catch((e: unknown) => classifyGoogleError(e, 'drive upload'));
    expect(missing).toMatchObject({ retryable: false, type: 'GoogleNotFoundError', status: 404 });
    expect((missing as { message: string }).message).toContain('File not found: nope');
    google.failNext('GET', /^\/drive\/v3\/files$/, 429, 5);
    const limited = await driveFiles
      .findByKey('reports-folder', 'k')
      .catch((e: unknown) => classifyGoogleError(e, 'drive list'));
    expect(limited).toMatchObject({ retryable: true, type: 'GoogleRateLimitedError', status: 429 });
  });

  it('refuses a request without a valid token, in Google’s error shape', async () => {
    const other = await startFakeGoogle();
    try {
      other.drive.addFolder('f', { sharedDrive: 'd' });
      // A key the server does not trust signs a token that must not verify.
      const auth = await googleAuthClient(
        { serviceAccountJson: other.serviceAccountJson, selfSignedJwt: true },
        DRIVE_SCOPES,
      );
      const stranger = new DriveFiles(auth, {
        rootUrl: google.rootUrl,
        resumableAbove: 1e6,
        chunkBytes: 262_144,
      });
      const err = await stranger.findByKey('reports-folder', 'k').catch((e: unknown) => e);
      expect(classifyGoogleError(err, 'drive list')).toMatchObject({
        retryable: false,
        type: 'GoogleUnauthorizedError',
      });
      const res = await fetch(`${google.rootUrl}drive/v3/files`);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    } finally {
      await other.close();
    }
    // Unused export kept honest: GoogleAuth is what the connectors wrap clients in.
    expect(typeof GoogleAuth).toBe('function');
  });
});

describe('Sheets', () => {
  it('one spreadsheet per key, one tab per period, rewritten in place with the same content', async () => {
    const auth = await googleAuthClient(
      { serviceAccountJson: google.serviceAccountJson, selfSignedJwt: true },
      SHEETS_SCOPES,
    );
    const sheets = new SheetsReports(auth, driveFiles, google.rootUrl);
    const book = {
      folderId: 'reports-folder',
      setting: 'sheets.folderId',
      key: 'sheets-acme-7',
      title: 'Billing',
      tab: { title: '2026-10', rows: 7, columns: 5 },
    };
    const id = await sheets.ensureSpreadsheet(book);
    expect(await sheets.ensureSpreadsheet(book)).toBe(id);
    const header = ['agent', 'calls', 'answered', 'note', 'day'];
    const write = () =>
      sheets.writeTab({ spreadsheetId: id, title: '2026-10', header, rows: rows(7), batchRows: 3 });
    const first = await write();
    expect(first).toMatchObject({ rows: 7, range: "'2026-10'!A1:E8" });
    const batches = google.requests.filter((r) => r.path.endsWith('/values:batchUpdate')).length;
    expect(batches).toBe(3); // header + 2 rows, then 3, then 2
    const content = google.sheets.values(id, '2026-10');
    expect(content[0]).toEqual(header);
    expect(content[1]).toEqual(['agent 0', 0, true, '', '2026-10-01T00:00:00.000Z']);
    expect(content).toHaveLength(8);
    await write();
    expect(google.sheets.values(id, '2026-10')).toEqual(content);
    // A shorter rewrite leaves none of the old rows behind.
    await sheets.writeTab({ spreadsheetId: id, title: '2026-10', header, rows: rows(2), batchRows: 100 });
    expect(google.sheets.values(id, '2026-10')).toHaveLength(3);
    await sheets.writeTab({ spreadsheetId: id, title: '2026-11', header, rows: rows(1), batchRows: 100 });
    const tabs = google.sheets.get(id);
    expect(tabs.sheets.map((s) => s.title)).toEqual(['Sheet1', '2026-10', '2026-11']);
    expect(tabs.sheets[1]?.frozenRowCount).toBe(1);
  });

  it('moves a schedule to a new spreadsheet before a new tab would pass the cell cap', async () => {
    // A cap of 100,000 cells on both sides: each tab's grid is 1000 × 26 = 26,000 cells, so a book
    // (Sheet1 and two periods: 78,000) takes no third period under 90 % of the cap.
    google.sheets.cellLimit = 100_000;
    try {
      const auth = await googleAuthClient(
        { serviceAccountJson: google.serviceAccountJson, selfSignedJwt: true },
        SHEETS_SCOPES,
      );
      const sheets = new SheetsReports(auth, driveFiles, google.rootUrl, { cellLimit: 100_000 });
      const header = ['agent', 'calls'];
      const deliver = async (period: string) => {
        const tab = { title: period, rows: 3, columns: header.length };
        const spreadsheetId = await sheets.ensureSpreadsheet({
          folderId: 'reports-folder',
          setting: 'sheets.folderId',
          key: 'sheets-daily',
          title: 'Daily',
          tab,
        });
        await sheets.writeTab({ spreadsheetId, title: period, header, rows: rows(3), batchRows: 10 });
        return spreadsheetId;
      };
      const first = await deliver('2026-10-01');
      expect(await deliver('2026-10-02')).toBe(first);
      const second = await deliver('2026-10-03');
      expect(second).not.toBe(first);
      expect(google.sheets.get(second).title).toBe('Daily (2)');
      expect(google.drive.files.get(second)?.appProperties.callsyncKey).toBe(
        spreadsheetPartKey('sheets-daily', 2),
      );
      expect(google.sheets.cellCount(google.sheets.get(first))).toBeLessThanOrEqual(90_000);
      // A period written again goes back to its own spreadsheet; the next one stays in the second.
      expect(await deliver('2026-10-01')).toBe(first);
      expect(await deliver('2026-10-04')).toBe(second);
      expect(google.sheets.get(second).sheets.map((t) => t.title)).toEqual([
        'Sheet1',
        '2026-10-03',
        '2026-10-04',
      ]);
    } finally {
      google.sheets.cellLimit = 10_000_000;
    }
  });
});
