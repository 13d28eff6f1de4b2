// Pure pieces of report delivery: recipients, names, keys, the message, error classification, Drive
// queries and resumable offsets, Sheets titles and cells, and the delivery config's validation.
import {
  deliveryKey,
  emailTarget,
  runIdText,
  sendsLink,
  spreadsheetKey,
} from '../../activities/report-delivery-keys';
import { reportDeliveryConfigSchema } from '../../config/report-delivery';
import { classifySmtpError } from '../../connectors/email/errors';
import {
  buildReportMessage,
  formatBytes,
  parseRecipients,
  reportFileName,
  reportMessageId,
  reportText,
} from '../../connectors/email/message';
import { outboxPath } from '../../connectors/email/mail-sender';
import { driveQueryString, keyQuery, nextOffsetFromRange } from '../../connectors/google/drive';
import { classifyGoogleError } from '../../connectors/google/errors';
import { a1Range, columnName, sheetTitle, toSheetCell } from '../../connectors/google/sheets';

const facts = {
  scheduleName: 'Monthly billing',
  periodLabel: '2026-10',
  periodFrom: new Date('2026-09-30T23:00:00Z'),
  periodTo: new Date('2026-10-31T23:59:59Z'),
  timezone: 'Europe/London',
  rows: 2,
  bytes: 2048,
  format: 'csv' as const,
};

describe('recipients', () => {
  it('reads a list or a separated string, lower-cases and de-duplicates, and keeps the invalid aside', () => {
    expect(parseRecipients(['B@x.example', 'a@x.example', 'b@x.example', 'nope', 7])).toEqual({
      valid: ['a@x.example', 'b@x.example'],
      invalid: ['nope', '7'],
    });
    expect(parseRecipients('a@x.example; c@x.example,  d@x.example')).toEqual({
      valid: ['a@x.example', 'c@x.example', 'd@x.example'],
      invalid: [],
    });
    expect(parseRecipients(null)).toEqual({ valid: [], invalid: [] });
  });

  it('the target is the same whatever the order or case', () => {
    expect(emailTarget(['B@x.example', 'a@x.example'])).toBe(emailTarget(['a@x.example', 'b@x.example']));
  });
});

describe('keys and names', () => {
  it('a delivery key depends on run, channel and target only, and is safe as a file name', () => {
    const key = deliveryKey('42', 'email', 'a@x.example');
    expect(key).toBe(deliveryKey('42', 'email', 'a@x.example'));
    expect(key).not.toBe(deliveryKey('42', 'email', 'b@x.example'));
    expect(key).not.toBe(deliveryKey('43', 'email', 'a@x.example'));
    expect(key).toMatch(/^report-42-email-[0-9a-f]{12}$/);
    expect(outboxPath('/out', key)).toBe(`/out/${key}.eml`);
    expect(() => outboxPath('/out', '../etc/passwd')).toThrow('not a safe outbox file name');
    expect(spreadsheetKey('acme', 7)).toBe('report-sheets-acme-7');
  });

  it('run ids are digits, as numbers or strings', () => {
    expect(runIdText(12)).toBe('12');
    expect(runIdText(' 12 ')).toBe('12');
    expect(() => runIdText('12; drop')).toThrow('runId must be a report_runs id');
  });

  it('file names are the schedule and period, made safe', () => {
    expect(reportFileName('Café: calls / day', '2026-W40', 'xlsx')).toBe('cafe-calls-day-2026-w40.xlsx');
    expect(reportFileName('***', '', 'pdf')).toBe('report.pdf');
  });

  it('a report is linked rather than attached only above the limit', () => {
    expect(sendsLink(10, 10)).toBe(false);
    expect(sendsLink(11, 10)).toBe(true);
  });
});

describe('the message', () => {
  it('carries the deterministic Message-ID, the attachment, or the link instead', () => {
    const common = {
      from: 'r@x.example',
      to: ['a@x.example'],
      messageId: reportMessageId('report-1-email-abc', 'reports.example'),
      facts,
      file: { path: '/tmp/r.csv' },
      date: new Date('2026-11-01T06:00:00Z'),
    };
    const attached = buildReportMessage(common);
    expect(attached.messageId).toBe('<report-1-email-abc@reports.example>');
    expect(attached.subject).toBe('Monthly billing – 2026-10');
    expect(attached.attachments).toEqual([
      { filename: 'monthly-billing-2026-10.csv', path: '/tmp/r.csv', contentType: 'text/csv; charset=utf-8' },
    ]);
    expect(attached.replyTo).toBeUndefined();
    const linked = buildReportMessage({
      ...common,
      link: 'https://drive.example/f',
      replyTo: 'ops@x.example',
    });
    expect(linked.attachments).toBeUndefined();
    expect(linked.text).toContain('open it in Google Drive: https://drive.example/f');
    expect(linked.replyTo).toBe('ops@x.example');
  });

  it('says the period and the size', () => {
    expect(reportText(facts)).toContain(
      'Period: 2026-10 (2026-09-30T23:00:00.000Z to 2026-10-31T23:59:59.000Z, Europe/London)',
    );
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(15 * 1024 * 1024)).toBe('15.0 MB');
  });
});

describe('SMTP failures', () => {
  it('4xx and lost connections retry; 5xx, bad credentials and refused envelopes do not', () => {
    expect(classifySmtpError({ responseCode: 451, code: 'EMESSAGE', message: 'Try later' })).toMatchObject({
      retryable: true,
      type: 'SmtpTemporaryError',
    });
    expect(classifySmtpError({ code: 'ECONNECTION', message: 'refused' })).toMatchObject({ retryable: true });
    expect(classifySmtpError({ responseCode: 535, code: 'EAUTH', message: 'Invalid login' })).toMatchObject({
      retryable: false,
      type: 'SmtpAuthError',
    });
    expect(classifySmtpError({ responseCode: 552, code: 'EMESSAGE', message: 'too big' })).toMatchObject({
      retryable: false,
      type: 'SmtpRejectedError',
      message: 'SMTP: too big',
    });
    expect(classifySmtpError({ code: 'EENVELOPE', message: 'No recipients defined' })).toMatchObject({
      retryable: false,
    });
  });
});

describe('Google failures', () => {
  const gaxios = (status: number, reason?: string, retryAfter?: string) => ({
    status,
    message: 'x',
    response: {
      status,
      headers: new Headers(retryAfter ? { 'retry-after': retryAfter } : {}),
      data: { error: { code: status, message: `failed ${status}`, errors: reason ? [{ reason }] : [] } },
    },
  });

  it('429, rate-limit 403s and 5xx retry (with Retry-After); other 4xx are typed and permanent', () => {
    expect(classifyGoogleError(gaxios(429, 'rateLimitExceeded', '7'), 'drive')).toMatchObject({
      retryable: true,
      type: 'GoogleRateLimitedError',
      retryAfterMs: 7000,
    });
    expect(classifyGoogleError(gaxios(403, 'userRateLimitExceeded'), 'drive')).toMatchObject({
      retryable: true,
    });
    expect(classifyGoogleError(gaxios(503), 'drive')).toMatchObject({
      retryable: true,
      type: 'GoogleUnavailableError',
    });
    expect(classifyGoogleError(new Error('socket hang up'), 'drive')).toMatchObject({
      retryable: true,
      status: undefined,
    });
    const denied = classifyGoogleError(gaxios(403, 'insufficientFilePermissions'), 'Drive upload');
    expect(denied).toMatchObject({ retryable: false, type: 'GoogleForbiddenError' });
    expect(denied.message).toBe('Drive upload: 403 failed 403 (insufficientFilePermissions)');
    expect(classifyGoogleError(gaxios(404), 'x')).toMatchObject({
      retryable: false,
      type: 'GoogleNotFoundError',
    });
    expect(classifyGoogleError(gaxios(422), 'x')).toMatchObject({
      retryable: false,
      type: 'GoogleRequestError',
    });
  });
});

describe('Drive queries and resumable offsets', () => {
  it('quotes values and finds by key in the folder, not trashed', () => {
    expect(driveQueryString("it's a\\b")).toBe("'it\\'s a\\\\b'");
    expect(keyQuery('folder1', 'report-1-drive-abc')).toBe(
      "appProperties has { key='callsyncKey' and value='report-1-drive-abc' } and 'folder1' in parents and trashed = false",
    );
  });

  it('continues after the last byte a 308 acknowledged', () => {
    expect(nextOffsetFromRange('bytes=0-262143')).toBe(262_144);
    expect(nextOffsetFromRange(null)).toBe(0);
  });
});

describe('Sheets', () => {
  it('titles, ranges, columns and cells', () => {
    expect(sheetTitle('2026-10-05..2026-10-06')).toBe('2026-10-05..2026-10-06');
    expect(sheetTitle('a/b:c[d]')).toBe('a-b-c-d-');
    expect(sheetTitle('x'.repeat(120))).toHaveLength(100);
    expect(a1Range("It's", 'A5')).toBe("'It''s'!A5");
    expect(columnName(1)).toBe('A');
    expect(columnName(26)).toBe('Z');
    expect(columnName(27)).toBe('AA');
    expect(columnName(703)).toBe('AAA');
    expect([null, 3, true, 'x', new Date('2026-10-01T00:00:00Z'), Number.NaN].map(toSheetCell)).toEqual([
      '',
      3,
      true,
      'x',
      '2026-10-01T00:00:00.000Z',
      'NaN',
    ]);
  });
});

describe('reports.delivery config', () => {
  it('defaults to the local outbox and a 10 MB attachment limit', () => {
    const config = reportDeliveryConfigSchema.parse({});
    expect(config.email.smtp).toBeUndefined();
    expect(config.email.outboxDir).toBe('.data/outbox');
    expect(config.attachmentMaxBytes).toBe(10 * 1024 * 1024);
    expect(config.google).toBeUndefined();
  });

  it('names the field and the problem', () => {
    const issues = (input: unknown) =>
      reportDeliveryConfigSchema
        .safeParse(input)
        .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ email: { smtp: { host: 'smtp.example', user: 'u' } } })).toEqual([
      'email.smtp.password: give both user and password, or neither',
    ]);
    expect(issues({ google: { drive: { folderId: 'f', chunkBytes: 300_000 } } })).toEqual([
      'google.drive.chunkBytes: must be a multiple of 262144 (256 KiB)',
    ]);
    expect(issues({ google: { sheets: { enabled: true } } })).toEqual([
      'google.sheets.folderId: sheets need a folder: set sheets.folderId or drive.folderId',
    ]);
  });
});
