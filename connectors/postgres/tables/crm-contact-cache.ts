// The CRM contact cache: phone number → CRM contacts, for lookups that cannot wait for a CRM search.
import type { ColumnType, Selectable } from 'kysely';

/** One CRM contact holding one number; crm_id '' with kind 'none' remembers "nobody has it". */
export interface CrmContactCacheTable {
  /** The platform account whose CRM answered. */
  account: string;
  /** The destination's identity: type plus portal, org or instance (`hubspot:<token id>`, `builtin`). */
  destination: string;
  /** The number in E.164. */
  e164: string;
  crm_id: string;
  kind: 'contact' | 'lead' | 'none';
  name: string | null;
  owner_id: string | null;
  /** The CRM's last modification of the contact (ISO 8601), for the "most recent" match rule. */
  crm_updated_at: string | null;
  cached_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type CrmContactCacheRow = Selectable<CrmContactCacheTable>;
