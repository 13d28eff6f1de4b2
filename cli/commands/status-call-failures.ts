// The "failed call follow-ups" section of `callsync status`: call logs, callback tasks and dials
// that gave up for good (a CRM refusing, retries spent), newest first, so none fails silently.
import type { CallFailureRow } from '../../connectors/postgres';

/** The section's text: a heading and one line per failure; '' when there is none. */
export function formatCallFailures(rows: readonly CallFailureRow[]): string {
  if (rows.length === 0) return '';
  const lines = rows.map((r) => {
    const when = new Date(r.failed_at).toISOString();
    const what = `${r.workflow_type} ${r.subject}`;
    return `${when}  ${r.account}  ${what}  ${r.activity}: ${r.failure_type}: ${r.message}`;
  });
  return [`\nFAILED CALL FOLLOW-UPS (latest ${rows.length}; table call_failures)`, ...lines].join('\n');
}
