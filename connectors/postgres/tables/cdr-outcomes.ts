// CRM outcomes written back to CDRs (labels and notes through PATCH /cdrs), one row per call.
import type { ColumnType, Selectable } from 'kysely';

/** pending: written to the platform or about to be; applied: done; echo: callsync's own disposition; refused: the platform said no. */
export type CdrOutcomeState = 'pending' | 'applied' | 'echo' | 'refused';

/** One call's outcome as last seen in the CRM and what callsync did with it. */
export interface CdrOutcomesTable {
  /** The destination's identity (connectors/crm destinationIdOf: portal or org). */
  destination: string;
  /** callsync's call key `<account>:<call id>`. */
  call_key: string;
  account: string;
  /** The CRM's call log id. */
  crm_id: string;
  cdr_id: ColumnType<number | null, number | null, number | null>;
  /** The CRM's disposition value (HubSpot: a GUID; Salesforce: the CallDisposition text). */
  value: string;
  /** The call label callsync put on the CDR for the outcome in effect (removed when it changes). */
  label: string | null;
  /** The outcome label this write replaces on the CDR (a retry removes it again). */
  previous_label: string | null;
  /** The note of the last write (a retry looks for it on the CDR before adding it again). */
  note: string | null;
  state: CdrOutcomeState;
  /** Why the platform refused the write. */
  reason: string | null;
  /** When the CRM says the disposition changed (ISO 8601). */
  crm_changed_at: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type CdrOutcomeRow = Selectable<CdrOutcomesTable>;
