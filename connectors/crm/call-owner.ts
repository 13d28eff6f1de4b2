// The CRM owner of a call: the platform user who made or took it, mapped to the CRM's owner (user)
// id. Platform user ids and CRM owner ids never match, so the mapping goes by e-mail through the
// vendor's owner/user API (cached by the connector), unless the configuration names the owner.
import type { CrmConnector } from './crm-connector';

export interface CallOwnerInput {
  /** The platform user of the call. */
  userId: number | null;
  /** That user's e-mail on the platform, when known. */
  email: string | null;
  /** Configured mapping: platform user id or e-mail (lower case) → CRM owner id. */
  overrides: Readonly<Record<string, string>>;
  connector: Pick<CrmConnector, 'ownerId'>;
}

/** The CRM owner id of the call's user, or null when the CRM has no such owner. */
export async function resolveCallOwner(input: CallOwnerInput): Promise<string | null> {
  if (input.userId === null) return null;
  const email = input.email?.trim().toLowerCase() || null;
  const configured = input.overrides[String(input.userId)] ?? (email ? input.overrides[email] : undefined);
  if (configured) return configured;
  // A destination without an owner API (the built-in one) keeps the platform's user ids as owners.
  if (!input.connector.ownerId) return String(input.userId);
  return input.connector.ownerId(email);
}
