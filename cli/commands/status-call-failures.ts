// The "failed call follow-ups" section of `callsync status`: call logs, callback tasks and dials
// that gave up for good (a CRM refusing, retries spent), newest first, so none fails silently.
import { retryState } from '../../activities/call-failure-retry';
import type { CallFailureRow } from '../../connectors/postgres';

/** The section's text: a heading and one line per failure; '' when there is none. */
export function formatCallFailures(rows: readonly CallFailureRow[]): string {
  if (rows.length === 0) return '';
  const lines = rows.map((r) => {
    const when = new Date(r.failed_at).toISOString();
    const what = `${r.workflow_type} ${r.subject}`;
    const retry = retryState(r);
    const retried = retry
      ? `  [retry ${retry}${r.retry_requested_by ? ` by ${r.retry_requested_by}` : ''}]`
      : '';
    return `${when}  ${r.account}  ${what}  ${r.activity}: ${r.failure_type}: ${r.message}${retried}`;
  });
  return [
    `\nFAILED CALL FOLLOW-UPS (latest ${rows.length}; table call_failures; retry a call's with \`callsync retry --call <account>:<call id>\`)`,
    ...lines,
  ].join('\n');
}
