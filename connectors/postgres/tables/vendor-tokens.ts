// OAuth tokens that renew themselves, per vendor and identity, sealed (lib/secret-box.ts).
import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** One install's tokens: what a worker needs to call the vendor and to renew the access token. */
export interface VendorTokensTable {
  /** `hubspot`, `salesforce`, … */
  vendor: string;
  /** Whose tokens within the vendor (e.g. `<account>/<client id>` for a HubSpot app install). */
  identity: string;
  /** The access token sealed with SecretBox (context: vendorTokenContext), never in clear. */
  access_token_sealed: string;
  /** The refresh token, sealed likewise (null when the grant gave none). */
  refresh_token_sealed: string | null;
  expires_at: Timestamp;
  /** Non-secret facts of the install (portal id, instance URL, scopes). */
  details: ColumnType<Record<string, string>, string | undefined, string>;
  /** Moves on with every install and refresh: a worker tells a token it saw rejected from a newer one. */
  version: ColumnType<string, number | undefined, number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export type VendorTokenRow = Selectable<VendorTokensTable>;
