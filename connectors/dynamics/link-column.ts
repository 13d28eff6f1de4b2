// The contact column that carries callsync's link key, made sure of once per sync run: read by its
// logical name (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/retrieve-metadata-name-metadataid),
// and created as a text column when missing
// (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/create-update-column-definitions-using-web-api).
// Two workers preparing at once: the second create is refused, and the column is there to read.
import type { DynamicsWebApi } from 'dynamics-web-api';
import { CrmError } from '../crm/errors';
import { LINK_COLUMN, LINK_MAX, LINK_SCHEMA_NAME } from './contact-records';
import { DESTINATION, isNotFound } from './errors';

/** How the column is read and created: the connector's request core (rate gate, tokens). */
export interface WebApiCall {
  call<T>(send: (client: DynamicsWebApi) => Promise<T>): Promise<T>;
}

const ENTITY = "LogicalName='contact'";

const label = (text: string) => ({
  '@odata.type': 'Microsoft.Dynamics.CRM.Label',
  LocalizedLabels: [
    { '@odata.type': 'Microsoft.Dynamics.CRM.LocalizedLabel', Label: text, LanguageCode: 1033 },
  ],
});

/** The column's definition: text of LINK_MAX, optional, not shown on forms unless added. */
export const LINK_COLUMN_DEFINITION = {
  '@odata.type': 'Microsoft.Dynamics.CRM.StringAttributeMetadata',
  AttributeType: 'String',
  AttributeTypeName: { Value: 'StringType' },
  SchemaName: LINK_SCHEMA_NAME,
  DisplayName: label('callsync contact'),
  Description: label('The platform contact callsync created or linked this contact for; do not edit.'),
  RequiredLevel: {
    Value: 'None',
    CanBeChanged: true,
    ManagedPropertyLogicalName: 'canmodifyrequirementlevelsettings',
  },
  MaxLength: LINK_MAX,
  FormatName: { Value: 'Text' },
};

async function exists(api: WebApiCall): Promise<boolean> {
  try {
    await api.call((c) =>
      c.retrieveAttribute({
        entityKey: ENTITY,
        attributeKey: `LogicalName='${LINK_COLUMN}'`,
        select: ['LogicalName'],
      }),
    );
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** Makes sure the contact table has the link-key column; idempotent. */
export async function ensureLinkColumn(api: WebApiCall): Promise<void> {
  if (await exists(api)) return;
  try {
    await api.call((c) => c.createAttribute({ entityKey: ENTITY, data: LINK_COLUMN_DEFINITION }));
  } catch (err) {
    // Created by another worker meanwhile: what was wanted.
    if (await exists(api)) return;
    if (err instanceof CrmError && !err.retryable)
      throw new CrmError({
        destination: DESTINATION,
        status: err.status,
        code: err.code,
        message:
          `${err.message}: contact sync needs the text column ${LINK_COLUMN} (${LINK_MAX} characters) on ` +
          'contact; create it, or give the application user a role that may (System Customizer), ' +
          '(docs/crm.md "Microsoft Dynamics 365")',
        retryable: false,
      });
    throw err;
  }
}
