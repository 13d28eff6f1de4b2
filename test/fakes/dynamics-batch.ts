// The Web API's $batch on the Dynamics 365 test server
// (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/execute-batch-operations-using-web-api):
// POST [Organization URI]/api/data/v9.2/$batch with a multipart/mixed body, one application/http
// part per operation, carried out in order and answered in order in a multipart/mixed body of
// batchresponse_ parts (each with the operation's status line, headers and body, as alone).
// - At most 1,000 operations a batch; a batch inside a batch is refused.
// - Without Prefer: odata.continue-on-error the batch stops at the first operation that fails (its
//   error is the last part); with it, every operation runs and each answers for itself.
// - Operations outside a change set are independent: each succeeds or fails alone.
// Change sets (atomic groups) are not taken by this test server: callsync sends none; a batch with
// one is refused rather than run without its transaction.
// The batch is one request for the service protection limits (dynamics-limits.ts admits it once:
// https://learn.microsoft.com/power-apps/developer/data-platform/api-limits, where the docs' author
// confirms "Batch operations are considered a single call", MicrosoftDocs/powerapps-docs#796); its
// operations' time counts in the execution-time limit as the batch's own.
import { WebApiFault } from './dynamics-records';

/** Most operations one batch takes. */
export const MAX_BATCH = 1000;

/** One operation of a batch, as its part wrote it. */
export interface BatchOperation {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What one operation answered. */
export interface OperationAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  412: 'Precondition Failed',
  500: 'Internal Server Error',
};

/** Headers of a MIME or HTTP block, names in lower case. */
function headersOf(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

/** The operations of a $batch body with this boundary. */
export function parseBatch(contentType: string, text: string): BatchOperation[] {
  const boundary = /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
  if (!/^multipart\/mixed/i.test(contentType) || !boundary)
    throw new WebApiFault(
      400,
      '0x80060891',
      'A $batch request needs Content-Type multipart/mixed with a boundary.',
    );
  const parts = text.split(`--${boundary}`);
  // Before the first delimiter: the preamble; after the last ("--"): the epilogue.
  const operations: BatchOperation[] = [];
  for (const raw of parts.slice(1)) {
    if (raw.startsWith('--')) break;
    const part = raw.replace(/^\r?\n/, '');
    const [mime, ...rest] = part.split(/\r?\n\r?\n/);
    const mimeHeaders = headersOf((mime ?? '').split(/\r?\n/));
    if (/^multipart\/mixed/i.test(mimeHeaders['content-type'] ?? ''))
      throw new WebApiFault(400, '0x80060891', 'This test server takes no change sets in a $batch.');
    if (!/^application\/http/i.test(mimeHeaders['content-type'] ?? ''))
      throw new WebApiFault(
        400,
        '0x80060891',
        'Each part of a $batch must be Content-Type application/http.',
      );
    const [head = '', ...bodyParts] = rest;
    const [requestLine = '', ...headerLines] = head.split(/\r?\n/);
    const m = /^(GET|POST|PATCH|PUT|DELETE) (\S+) HTTP\/1\.1$/.exec(requestLine.trim());
    if (!m)
      throw new WebApiFault(400, '0x80060891', `Not an HTTP request line in a $batch part: ${requestLine}`);
    operations.push({
      method: m[1]!,
      url: m[2]!,
      headers: headersOf(headerLines),
      body: bodyParts.join('\r\n\r\n').trim(),
    });
  }
  if (operations.some((o) => /\/\$batch(\?|$)/.test(o.url)))
    throw new WebApiFault(400, '0x80060891', 'A $batch cannot contain another $batch.');
  if (operations.length > MAX_BATCH)
    throw new WebApiFault(
      400,
      '0x80060891',
      `The batch holds ${operations.length} operations; a $batch takes at most ${MAX_BATCH}.`,
    );
  return operations;
}

/** Runs the operations in order; stops after the first failure unless `continueOnError`. */
export async function runBatch(
  operations: readonly BatchOperation[],
  continueOnError: boolean,
  run: (op: BatchOperation) => Promise<OperationAnswer>,
): Promise<OperationAnswer[]> {
  const answers: OperationAnswer[] = [];
  for (const op of operations) {
    const answer = await run(op);
    answers.push(answer);
    if (answer.status >= 400 && !continueOnError) break;
  }
  return answers;
}

/** The multipart/mixed answer of a batch: its Content-Type and body. */
export function batchResponse(
  answers: readonly OperationAnswer[],
  boundary: string,
): { contentType: string; body: string } {
  const parts = answers.map((a) =>
    [
      `--${boundary}`,
      'Content-Type: application/http',
      'Content-Transfer-Encoding: binary',
      '',
      `HTTP/1.1 ${a.status} ${STATUS_TEXT[a.status] ?? 'Unknown'}`,
      ...Object.entries(a.headers).map(([k, v]) => `${k}: ${v}`),
      '',
      a.body,
    ].join('\r\n'),
  );
  return {
    contentType: `multipart/mixed; boundary=${boundary}`,
    body: `${parts.join('\r\n')}\r\n--${boundary}--\r\n`,
  };
}
