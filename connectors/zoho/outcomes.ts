// Zoho call outcomes for the write-back to CDRs: callsync's Calls (its key field set) whose
// Call_Result an agent set, by Modified_Time, read with COQL in pages of 200
// (https://www.zoho.com/crm/developer/docs/api/v8/get-records-through-coql-query.html); the owner's
// e-mail from the org's users. callsync itself writes no Call_Result, so every one is an agent's.
import type { CallLog, CrmOutcome, CrmOutcomeSource } from '../crm/crm-connector';

const PAGE = 200;

export interface OutcomeReads {
  coql(query: string): Promise<Record<string, unknown>[]>;
  /** The e-mail of a CRM user id, when known. */
  userEmail(id: string): Promise<string | null>;
}

/** COQL datetimes are quoted ISO 8601 with an offset. */
export function coqlDateTime(iso: string): string {
  return `'${new Date(iso).toISOString().replace(/\.\d{3}Z$/, '+00:00')}'`;
}

/** The COQL of callsync's call logs with a result, modified at or after `since`, one page. */
export function outcomesQuery(keyField: string, since: string | null, offset: number): string {
  const conds = [`${keyField} is not null`, 'Call_Result is not null'];
  if (since !== null) conds.push(`Modified_Time >= ${coqlDateTime(since)}`);
  return (
    `select ${keyField}, Call_Result, Modified_Time, Owner from Calls where ${conds.join(' and ')} ` +
    `order by Modified_Time asc limit ${offset}, ${PAGE}`
  );
}

export class ZohoOutcomes implements CrmOutcomeSource {
  readonly displayName = 'Zoho CRM';

  constructor(
    private readonly reads: OutcomeReads,
    private readonly keyField: string,
  ) {}

  ownValue(_status: CallLog['status']): string | null {
    return null;
  }

  async *changedSince(since: string | null): AsyncIterable<CrmOutcome[]> {
    for (let offset = 0; ; offset += PAGE) {
      const rows = await this.reads.coql(outcomesQuery(this.keyField, since, offset));
      const page: CrmOutcome[] = [];
      for (const r of rows) {
        const key = r[this.keyField];
        const value = r.Call_Result;
        const modified = r.Modified_Time;
        const id = r.id;
        if (typeof key !== 'string' || typeof value !== 'string' || typeof modified !== 'string') continue;
        if (typeof id !== 'string') continue;
        const owner = (r.Owner as { id?: unknown } | null | undefined)?.id;
        page.push({
          key,
          crmId: id,
          value,
          label: value,
          modifiedAt: new Date(modified).toISOString(),
          by: typeof owner === 'string' ? await this.reads.userEmail(owner) : null,
        });
      }
      if (page.length > 0) yield page;
      if (rows.length < PAGE) return;
    }
  }
}
