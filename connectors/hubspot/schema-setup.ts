// The custom properties callsync writes on a HubSpot portal: read first (a portal where an admin
// created them needs no schema write scope), created in a `callsync` property group when missing.
// callsync_key is a plain text property: HubSpot has unique-value properties (hasUniqueValue) for
// contacts, companies, deals, tickets and custom objects only, not for calls, tasks or other
// engagements (https://developers.hubspot.com/docs/api/crm/properties), so exactly-once rests on
// callsync's own key, its mapping table and the key lookup (key-search.ts), not on HubSpot.
import type { Client } from '@hubspot/api-client';
import type {
  PropertyCreateFieldTypeEnum,
  PropertyCreateTypeEnum,
} from '@hubspot/api-client/lib/codegen/crm/properties';
import { CrmError } from '../crm/errors';
import { DESTINATION, isConflict, toCrmError } from './errors';
import type { MessageObjectType } from './messages';
import { KEY_PROPERTY } from './properties';

export type PropertyObject = 'calls' | 'tasks' | 'contacts' | MessageObjectType;

export interface SchemaContext {
  client: Client;
  call<T>(send: () => Promise<T>): Promise<T>;
}

/** Whether the portal has the property `name` on `objectType` (a 404 is no). */
export async function hasProperty(
  ctx: SchemaContext,
  objectType: PropertyObject,
  name: string,
): Promise<boolean> {
  try {
    await ctx.call(() => ctx.client.crm.properties.coreApi.getByName(objectType, name));
    return true;
  } catch (err) {
    if (err instanceof CrmError && err.status === 404) return false;
    throw setupError(err, `read the property ${name} on ${objectType}`);
  }
}

/** Creates a single-line text property (and the callsync group); one that exists already is fine (409). */
export async function createProperty(
  ctx: SchemaContext,
  objectType: PropertyObject,
  name: string,
  label: string,
  description: string,
): Promise<void> {
  try {
    await ctx.call(() =>
      ctx.client.crm.properties.groupsApi.create(objectType, { name: 'callsync', label: 'callsync' }),
    );
  } catch (err) {
    if (!(err instanceof CrmError && err.status === 409)) throw err;
  }
  try {
    await ctx.call(() =>
      ctx.client.crm.properties.coreApi.create(objectType, {
        name,
        label,
        description,
        // (the enums' values; the enums themselves live in the client library, loaded on first use)
        type: 'string' as PropertyCreateTypeEnum,
        fieldType: 'text' as PropertyCreateFieldTypeEnum,
        groupName: 'callsync',
      }),
    );
  } catch (err) {
    if (!(err instanceof CrmError && err.status === 409) && !isConflict(err)) throw err;
  }
}

/** Creates callsync_key on `objectType` when the portal does not have it. */
export async function ensureKeyProperty(ctx: SchemaContext, objectType: PropertyObject): Promise<void> {
  if (await hasProperty(ctx, objectType, KEY_PROPERTY)) return;
  try {
    await createProperty(
      ctx,
      objectType,
      KEY_PROPERTY,
      'callsync key',
      'Idempotency key written by callsync; do not edit.',
    );
  } catch (err) {
    throw setupError(err, `create the property ${KEY_PROPERTY} on ${objectType}`);
  }
}

/** A setup step that failed, as a CrmError that says what callsync tried and which permission to grant. */
export function setupError(err: unknown, what: string): CrmError {
  const e = toCrmError(err);
  if (e.status !== 401 && e.status !== 403) return e;
  return new CrmError({
    destination: DESTINATION,
    status: e.status,
    code: e.code,
    message:
      `cannot ${what}: ${e.message.replace(/^hubspot: /, '')}. Grant the private app the missing ` +
      `scopes, or create the property by hand (internal name ${KEY_PROPERTY}, single-line text)`,
    retryable: false,
  });
}
