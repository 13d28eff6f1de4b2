// CRM outcomes back on the CDR: the scheduled pass per account that writes the outcomes agents set
// on call logs in the CRM as call labels and notes on the calls' CDRs.
import { workflowRef } from './workflow-ref';

/** What one pass did. */
export interface CrmOutcomesResult {
  /** Why nothing was read (the account's CRM keeps no outcomes), or null. */
  skipped: string | null;
  /** Outcomes read from the CRM that were new or changed. */
  changed: number;
  /** CDRs that got a label and a note. */
  written: number;
  /** Outcomes that were callsync's own disposition coming back, not an agent's (not written). */
  echoes: number;
  /** CDRs the platform refused (kept in cdr_outcomes with its reason). */
  refused: number;
  /** Writes an earlier attempt left pending: found done on the CDR, or written now. */
  resumed: number;
  /** Call labels created. */
  labelsCreated: number;
}

/** Schedule id (and workflow id of scheduled runs) of an account's outcome pass. */
export function crmOutcomesScheduleId(account: string): string {
  return `crm-outcomes-${account}`;
}

export type CrmOutcomesWorkflow = (input: { account: string }) => Promise<CrmOutcomesResult>;

export const crmOutcomesWorkflow = workflowRef<CrmOutcomesWorkflow>('crmOutcomes');
