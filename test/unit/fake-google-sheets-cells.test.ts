// The local Sheets' cell cap (test/fakes/google/sheets.ts), as Google documents it: a spreadsheet
// holds at most 10 million cells over all its tabs' grids; adding a tab or writing values that
// would pass it is refused with Google's 400 and message.
import type { AuthClient } from 'google-auth-library';
import { googleAuthClient } from '../../connectors/google/credentials';
import { SHEETS_CELL_LIMIT } from '../fakes/google/sheets';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';

let google: FakeGoogle;
let auth: AuthClient;

beforeAll(async () => {
  google = await startFakeGoogle();
  auth = await googleAuthClient({ serviceAccountJson: google.serviceAccountJson, selfSignedJwt: true }, [
    'https://www.googleapis.com/auth/spreadsheets',
  ]);
});
afterAll(() => google.close());

const post = (path: string, data: object) =>
  auth.request<Record<string, unknown>>({
    url: `${google.rootUrl}v4/spreadsheets/${path}`,
    method: 'POST',
    data,
    validateStatus: () => true,
  });
const addSheet = (id: string, title: string, grid: Record<string, number> = {}) =>
  post(`${id}:batchUpdate`, { requests: [{ addSheet: { properties: { title, gridProperties: grid } } }] });

describe('the local Sheets: 10 million cells per spreadsheet', () => {
  it('refuses a tab whose grid would take the spreadsheet past the cap, in Google’s shape', async () => {
    expect(google.sheets.cellLimit).toBe(10_000_000);
    const book = google.sheets.create('Big');
    // Sheet1 (1000 × 26 = 26,000) and a tab of 383,000 × 26 make 9,984,000; one more tab, 10,010,000.
    expect((await addSheet(book.spreadsheetId, 'full', { rowCount: 383_000, columnCount: 26 })).status).toBe(
      200,
    );
    expect(google.sheets.cellCount(book)).toBe(26_000 + 383_000 * 26);
    const refused = await addSheet(book.spreadsheetId, 'one more');
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: `Invalid requests[0].addSheet: This action would increase the number of cells in the workbook above the limit of ${SHEETS_CELL_LIMIT} cells.`,
      },
    });
    expect(book.sheets.map((s) => s.title)).toEqual(['Sheet1', 'full']);
  });

  it('refuses values that would grow a grid past the cap, and writes nothing of them', async () => {
    google.sheets.cellLimit = 30_000;
    try {
      const book = google.sheets.create('Small');
      // 1000 × 26 = 26,000; rows to 1153 make 29,978 (allowed), to 1154 make 30,004 (refused).
      const write = (row: number) =>
        post(`${book.spreadsheetId}/values:batchUpdate`, {
          valueInputOption: 'RAW',
          data: [{ range: `Sheet1!A${row}`, values: [['x']] }],
        });
      expect((await write(1153)).status).toBe(200);
      const refused = await write(1154);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.data)).toContain('above the limit of 30000 cells');
      expect(google.sheets.cellCount(book)).toBe(1153 * 26);
      expect(google.sheets.values(book.spreadsheetId, 'Sheet1')).toHaveLength(1153);
    } finally {
      google.sheets.cellLimit = SHEETS_CELL_LIMIT;
    }
  });
});
