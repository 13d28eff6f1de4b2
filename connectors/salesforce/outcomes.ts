// Salesforce call outcomes for the write-back to CDRs: callsync's call logs (Tasks of subtype Call
// whose CallObject holds callsync's key) with a CallDisposition, by SystemModstamp, read with SOQL in
// Salesforce's own batches (query, then queryMore); each Task's owner's name from User.
import type { CallLog } from '../crm/crm-connector';
import type { CrmOutcome, CrmOutcomeSource } from '../crm/outcomes';
import { ownCallDisposition, soqlString } from './fields';
import type { SalesforceTransport } from './transport';

interface TaskRow {
  Id: string;
  CallObject: string | null;
  CallDisposition: string | null;
  SystemModstamp: string | null;
  OwnerId: string | null;
}

/** The SOQL of call logs with an outcome modified at or after `since` (SOQL datetimes are unquoted). */
export function outcomesQuery(since: string | null): string {
  const conds = ["TaskSubtype = 'Call'", 'CallObject != null', 'CallDisposition != null'];
  if (since !== null) conds.push(`SystemModstamp >= ${new Date(since).toISOString()}`);
  return (
    `SELECT Id, CallObject, CallDisposition, SystemModstamp, OwnerId FROM Task WHERE ${conds.join(' AND ')} ` +
    'ORDER BY SystemModstamp ASC'
  );
}

export class SalesforceOutcomes implements CrmOutcomeSource {
  readonly displayName = 'Salesforce';
  private readonly owners = new Map<string, string | null>();

  constructor(private readonly t: SalesforceTransport) {}

  ownValue(status: CallLog['status']): string | null {
    return ownCallDisposition(status);
  }

  async *changedSince(since: string | null): AsyncIterable<CrmOutcome[]> {
    let page = await this.t.call(
      async () => await this.t.connection.query<TaskRow>(outcomesQuery(since), { autoFetch: false }),
    );
    for (;;) {
      yield await this.outcomes(page.records);
      const next = page.nextRecordsUrl;
      if (page.done || !next) return;
      page = await this.t.call(async () => await this.t.connection.queryMore<TaskRow>(next));
    }
  }

  private async outcomes(rows: readonly TaskRow[]): Promise<CrmOutcome[]> {
    const unknown = [...new Set(rows.map((r) => r.OwnerId).filter((id): id is string => !!id))].filter(
      (id) => !this.owners.has(id),
    );
    if (unknown.length > 0) {
      const users = await this.t.call(
        async () =>
          await this.t.connection.query<{ Id: string; Name: string | null }>(
            `SELECT Id, Name FROM User WHERE Id IN (${unknown.map(soqlString).join(', ')})`,
          ),
      );
      for (const id of unknown) this.owners.set(id, null);
      for (const u of users.records) this.owners.set(u.Id, u.Name || null);
    }
    const out: CrmOutcome[] = [];
    for (const r of rows) {
      if (!r.CallObject || !r.CallDisposition || !r.SystemModstamp) continue;
      out.push({
        key: r.CallObject,
        crmId: r.Id,
        value: r.CallDisposition,
        label: r.CallDisposition,
        modifiedAt: new Date(r.SystemModstamp.replace(/\+0000$/, 'Z')).toISOString(),
        by: r.OwnerId ? (this.owners.get(r.OwnerId) ?? null) : null,
      });
    }
    return out;
  }
}
