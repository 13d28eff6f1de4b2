// Salesforce people for call logging: the Contacts and unconverted Leads holding a caller's number
// (SOSL, phone-search.ts), a Contact for an unknown caller (or the record the org's duplicate rule
// names), and the Lightning pages a screen-pop links to.
import type { Connection } from 'jsforce';
import type { CrmContact } from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import { DESTINATION, errorCode, saveError } from './errors';
import {
  duplicateMatches,
  hitPhones,
  newContactFields,
  personByIdQuery,
  phoneHitsSosl,
  toCrmContact,
  type SalesforceRecord,
} from './fields';
import { searchNumbers } from './phone-search';

export interface SalesforcePeopleContext {
  connection: Connection;
  call<T>(send: () => Promise<T>): Promise<T>;
  instanceUrl: string;
}

export class SalesforcePeople {
  constructor(private readonly ctx: SalesforcePeopleContext) {}

  async findByPhone(e164: string): Promise<CrmContact[]> {
    const hits = await searchNumbers(
      [e164],
      async (find) =>
        (await this.ctx.call(() => this.ctx.connection.search(phoneHitsSosl(find))))
          .searchRecords as SalesforceRecord[],
      hitPhones,
    );
    return (hits.get(e164) ?? []).map(toCrmContact).filter((c): c is CrmContact => c !== null);
  }

  /**
   * A Contact for an unknown caller. Where the org's duplicate rule finds the caller already
   * (DUPLICATES_DETECTED: the same number or e-mail on a Contact or Lead the phone search missed),
   * that record is the caller: it is read back and returned, and no duplicate is saved (callsync
   * never sends `Sforce-Duplicate-Rule-Header: allowSave=true`).
   */
  async createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    const fields = newContactFields(input);
    const res = await this.ctx.call(async () => {
      try {
        return await this.ctx.connection.sobject('Contact').create(fields);
      } catch (err) {
        if (errorCode(err) !== 'DUPLICATES_DETECTED') throw err;
        const matches = duplicateMatches((err as { data?: unknown }).data);
        if (matches.length === 0) throw err;
        return { duplicates: matches };
      }
    });
    if ('duplicates' in res) {
      for (const match of res.duplicates) {
        const found = await this.ctx.call(
          async () => await this.ctx.connection.query(personByIdQuery(match)),
        );
        const contact = found.records.map((r) => toCrmContact(r as SalesforceRecord)).find((c) => c !== null);
        if (contact) return contact;
      }
      throw new CrmError({
        destination: DESTINATION,
        status: 400,
        code: 'DUPLICATES_DETECTED',
        message: 'the duplicate rule named records that cannot be read',
        retryable: true,
      });
    }
    if (!res.success || !res.id) throw saveError(res);
    const name = input.name?.trim() || null;
    return { crmId: res.id, kind: 'contact', name, ownerId: null, updatedAt: new Date().toISOString() };
  }

  /** The record page in Lightning Experience. */
  pageUrl(contact: CrmContact): string {
    const type = contact.kind === 'lead' ? 'Lead' : 'Contact';
    return `${this.uiBase()}/lightning/r/${type}/${encodeURIComponent(contact.crmId)}/view`;
  }

  /** A call log's page: callsync logs calls as Tasks. */
  taskPageUrl(crmId: string): string {
    return `${this.uiBase()}/lightning/r/Task/${encodeURIComponent(crmId)}/view`;
  }

  /** Lightning's new-Contact form with the phone filled in (defaultFieldValues). */
  newContactUrl(e164: string): string {
    return `${this.uiBase()}/lightning/o/Contact/new?defaultFieldValues=${encodeURIComponent(`Phone=${e164}`)}`;
  }

  private uiBase(): string {
    return this.ctx.instanceUrl.replace(/\/$/, '');
  }
}
