// Contacts as callsync reads them, and the web pages of records (pure).
import type { CrmContact } from '../crm/crm-connector';

/** The contact columns a lookup reads (besides the phone columns). */
export const CONTACT_COLUMNS = ['contactid', 'fullname', '_ownerid_value', 'modifiedon'] as const;

export interface ContactRow {
  contactid: string;
  fullname?: string | null;
  _ownerid_value?: string | null;
  /** dynamics-web-api revives ISO dates in answers as Dates. */
  modifiedon?: Date | string | null;
  [column: string]: unknown;
}

export function toContact(row: ContactRow): CrmContact {
  return {
    crmId: row.contactid,
    kind: 'contact',
    name: row.fullname ?? null,
    ownerId: row._ownerid_value ?? null,
    updatedAt: row.modifiedon instanceof Date ? row.modifiedon.toISOString() : (row.modifiedon ?? null),
  };
}

/**
 * A model-driven app form (main.aspx?pagetype=entityrecord&etn=…: https://learn.microsoft.com/power-apps/developer/model-driven-apps/open-forms-views-dialogs-reports-url),
 * in the app `appId` when given.
 */
export function recordPageUrl(
  environment: string,
  appId: string | undefined,
  etn: string,
  params: Record<string, string>,
): string {
  const q = new URLSearchParams({
    ...(appId ? { appid: appId } : {}),
    pagetype: 'entityrecord',
    etn,
    ...params,
  });
  return `${environment}/main.aspx?${q.toString()}`;
}
