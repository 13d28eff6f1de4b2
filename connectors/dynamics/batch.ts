// Several writes in one Web API $batch (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/execute-batch-operations-using-web-api):
// up to 1,000 operations, outside any change set so each succeeds or fails alone, with
// Prefer: odata.continue-on-error so one failure does not stop the rest; answers come in request
// order. One request through the connector's request core (rate gate, service protection, tokens).
// dynamics-web-api collects a batch on its shared client between startBatch() and executeBatch():
// both run in one synchronous stretch, so no other request of the connector slips into it.
import type { DynamicsWebApi } from 'dynamics-web-api';
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';
import type { WebApiCall } from './link-column';

/** Most operations one $batch takes. */
export const MAX_BATCH = 1000;

/** What one operation of a batch answered. */
export type PartOutcome =
  | { ok: true; value: unknown }
  | { ok: false; status: number | undefined; code: string | undefined; message: string };

/** An operation's error as dynamics-web-api gives it: the Web API's error object under `error`. */
function failure(part: Error): PartOutcome {
  const e = part as Error & { status?: unknown; error?: { code?: unknown; message?: unknown } };
  const code = typeof e.error?.code === 'string' ? e.error.code.toLowerCase() : undefined;
  const message = typeof e.error?.message === 'string' ? e.error.message : e.message;
  return { ok: false, status: typeof e.status === 'number' ? e.status : undefined, code, message };
}

/**
 * Sends the operations `add` queues on the client (create, update, deleteRecord: one per item) as
 * one $batch, and answers each in order.
 */
export async function sendBatch(
  api: WebApiCall,
  count: number,
  add: (client: DynamicsWebApi) => Promise<unknown>[],
): Promise<PartOutcome[]> {
  if (count === 0) return [];
  if (count > MAX_BATCH) throw new RangeError(`a $batch takes at most ${MAX_BATCH} operations`);
  const answers = await api.call((c) => {
    c.startBatch();
    // In a batch these settle at once (nothing is sent until executeBatch); a refused argument rejects.
    const queued = add(c).map((p) =>
      p.then(
        () => null,
        (err: unknown) => err,
      ),
    );
    const sent = c.executeBatch({ continueOnError: true, inChangeSet: false });
    return Promise.all([sent, Promise.all(queued)]).then(([res, problems]) => {
      const problem = problems.find((p) => p !== null);
      // dynamics-web-api refused an operation's arguments: a bug here, which no retry fixes.
      if (problem)
        throw new CrmError({
          destination: DESTINATION,
          message: `$batch operation refused by the client: ${problem instanceof Error ? problem.message : JSON.stringify(problem)}`,
          retryable: false,
        });
      return res as unknown[];
    });
  });
  if (!Array.isArray(answers) || answers.length !== count)
    throw new CrmError({
      destination: DESTINATION,
      message: `$batch of ${count} operations answered ${Array.isArray(answers) ? answers.length : 'no'} parts`,
      retryable: true,
    });
  return answers.map((a) => (a instanceof Error ? failure(a) : { ok: true, value: a }));
}

/** A failed part as a CrmError (for failures a record cannot be refused alone for: 5xx, 429). */
export function partError(p: Extract<PartOutcome, { ok: false }>, what: string): CrmError {
  return new CrmError({
    destination: DESTINATION,
    status: p.status,
    code: p.code,
    message: `${what}: ${p.status ?? ''} ${p.message}`.trim(),
    retryable: p.status === undefined || p.status === 429 || p.status >= 500,
  });
}
