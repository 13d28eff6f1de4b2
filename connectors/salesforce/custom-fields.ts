// The custom fields contact sync needs on Contact and Lead, created by callsync itself when they are
// missing, as HubSpot's property is: each field through the Tooling API (CustomField), then made
// readable and editable for the integration user through a permission set of callsync's own
// (FieldPermissions on it, assigned to the user). Fields made through the API are visible to no
// profile until such a grant, so creating them alone is not enough. A user without the rights to
// change setup (Customize Application, Manage Users) is refused somewhere on the way; the reason
// goes back to the caller, which asks an admin to do the same by hand.
import { CrmError } from '../crm/errors';
import { soqlString } from './fields';
import type { SalesforceTransport } from './transport';

/** The permission set callsync creates (API name) and assigns to its integration user. */
export const PERMISSION_SET = 'Callsync_Integration';

export interface CustomFieldSpec {
  /** API name with its suffix: Callsync_Contact__c. */
  name: string;
  label: string;
  description: string;
  /** The Tooling API's CustomField metadata type, and its length for text. */
  type: 'Text' | 'DateTime';
  length?: number;
  externalId?: boolean;
}

/** Whom a field sits on and the field: 'Contact' and its spec. */
export interface FieldOnObject {
  object: string;
  spec: CustomFieldSpec;
}

/** Tooling API answers for a field that exists already (a concurrent or earlier creation). */
const EXISTS = new Set(['DUPLICATE_DEVELOPER_NAME', 'DUPLICATE_VALUE']);

/**
 * Creates the fields that do not exist and grants the integration user Read and Edit on all of them.
 * Idempotent: what exists (a field, the permission set, a grant, the assignment) is left as it is.
 * Throws the CrmError of the step Salesforce refused.
 */
export async function provisionCustomFields(
  t: SalesforceTransport,
  fields: readonly FieldOnObject[],
): Promise<void> {
  for (const { object, spec } of fields) {
    try {
      await t.call(() =>
        t.connection.tooling.create('CustomField', {
          FullName: `${object}.${spec.name}`,
          Metadata: {
            label: spec.label,
            description: spec.description,
            type: spec.type,
            ...(spec.length !== undefined ? { length: spec.length } : {}),
            ...(spec.externalId ? { externalId: true, unique: false } : {}),
            required: false,
          },
        }),
      );
    } catch (err) {
      if (!(err instanceof CrmError && err.code !== undefined && EXISTS.has(err.code))) throw err;
    }
  }
  const permissionSet = await ensurePermissionSet(t);
  await grantFields(t, permissionSet, fields);
  await assignToSelf(t, permissionSet);
}

async function firstId(t: SalesforceTransport, query: string): Promise<string | undefined> {
  const found = await t.call(async () => await t.connection.query<{ Id: string }>(query));
  return found.records[0]?.Id;
}

async function created(
  t: SalesforceTransport,
  type: string,
  record: Record<string, unknown>,
): Promise<string> {
  const result = await t.call(() => t.connection.sobject(type).create(record));
  if (!result.success) throw new Error(`${type} not created: ${JSON.stringify(result)}`);
  return result.id;
}

async function ensurePermissionSet(t: SalesforceTransport): Promise<string> {
  const existing = await firstId(
    t,
    `SELECT Id FROM PermissionSet WHERE Name = ${soqlString(PERMISSION_SET)}`,
  );
  return (
    existing ??
    (await created(t, 'PermissionSet', {
      Name: PERMISSION_SET,
      Label: 'callsync integration',
      Description: "Read and edit of callsync's contact sync fields, for the integration user",
    }))
  );
}

async function grantFields(t: SalesforceTransport, permissionSet: string, fields: readonly FieldOnObject[]) {
  const names = fields.map(({ object, spec }) => `${object}.${spec.name}`);
  const existing = await t.call(
    async () =>
      await t.connection.query<{ Id: string; Field: string; PermissionsEdit: boolean }>(
        `SELECT Id, Field, PermissionsEdit FROM FieldPermissions WHERE ParentId = ${soqlString(permissionSet)} ` +
          `AND Field IN (${names.map(soqlString).join(', ')})`,
      ),
  );
  const byField = new Map(existing.records.map((r) => [r.Field, r]));
  for (const { object, spec } of fields) {
    const field = `${object}.${spec.name}`;
    const grant = byField.get(field);
    if (grant?.PermissionsEdit) continue;
    if (grant) {
      await t.call(() =>
        t.connection
          .sobject('FieldPermissions')
          .update({ Id: grant.Id, PermissionsRead: true, PermissionsEdit: true }),
      );
    } else {
      await created(t, 'FieldPermissions', {
        ParentId: permissionSet,
        SobjectType: object,
        Field: field,
        PermissionsRead: true,
        PermissionsEdit: true,
      });
    }
  }
}

async function assignToSelf(t: SalesforceTransport, permissionSet: string): Promise<void> {
  const me = await t.call(() => t.connection.request<{ user_id?: unknown }>('/services/oauth2/userinfo'));
  if (typeof me.user_id !== 'string') throw new Error('Salesforce userinfo named no user_id');
  const userId = me.user_id;
  const assigned = await firstId(
    t,
    `SELECT Id FROM PermissionSetAssignment WHERE PermissionSetId = ${soqlString(permissionSet)} ` +
      `AND AssigneeId = ${soqlString(userId)}`,
  );
  if (!assigned)
    await created(t, 'PermissionSetAssignment', { PermissionSetId: permissionSet, AssigneeId: userId });
}
