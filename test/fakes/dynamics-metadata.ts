// Column definitions (attribute metadata) through the Dynamics 365 test server's Web API: a column
// read by its logical name, GET EntityDefinitions(LogicalName='contact')/Attributes(LogicalName='…')
// (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/retrieve-metadata-name-metadataid),
// and a text column added to a table, POST EntityDefinitions(LogicalName='contact')/Attributes with a
// StringAttributeMetadata (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/create-update-column-definitions-using-web-api).
// A created column can be read, written and filtered at once (publishing is for forms and views).
import { randomUUID } from 'node:crypto';
import { DataverseTables, WebApiFault } from './dynamics-records';
import { TABLES, type Column } from './dynamics-tables';

/**
 * The customization prefix of the publisher a column created without MSCRM.SolutionUniqueName
 * belongs to (the organization's default publisher, "new": the SDK's metadata-attributemetadata
 * article); a SchemaName must start with it and an underscore.
 */
export const DEFAULT_PREFIX = 'new';
/** A text column's MaxLength: 1 to 4,000 (StringAttributeMetadata.MaxLength). */
const MAX_STRING = 4000;

const PATH = /^EntityDefinitions\(LogicalName='(\w+)'\)\/Attributes(?:\(LogicalName='(\w+)'\))?$/;

export interface MetadataAnswer {
  status: number;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

interface Definition {
  MetadataId: string;
  LogicalName: string;
  SchemaName: string;
  MaxLength: number;
}

/** The column definitions API of one test server; null when `path` is none of its requests. */
export class ColumnDefinitions {
  private readonly created = new Map<string, Definition>();

  constructor(private readonly tables: DataverseTables) {}

  handle(method: string, rawPath: string, body: Record<string, unknown>, url: string): MetadataAnswer | null {
    const m = PATH.exec(decodeURIComponent(rawPath));
    if (!m) return null;
    const [, entity, attribute] = m as unknown as [string, string, string | undefined];
    const set = Object.values(TABLES).find((t) => t.logical === entity)?.set;
    if (!set)
      throw new WebApiFault(404, '0x80040217', `Could not find entity with logical name '${entity}'.`);
    if (method === 'GET' && attribute !== undefined) return this.read(set, entity, attribute);
    if (method === 'POST' && attribute === undefined) return this.create(set, entity, body, url);
    throw new WebApiFault(405, '0x80060888', `The HTTP method ${method} is not allowed here.`);
  }

  private read(set: string, entity: string, attribute: string): MetadataAnswer {
    const name = attribute.toLowerCase();
    const custom = this.created.get(`${set}.${name}`);
    const column = this.tables.table(set).columns[name];
    if (!column)
      throw new WebApiFault(
        404,
        '0x80040217',
        `Could not find attribute with name '${attribute}' on entity '${entity}'.`,
      );
    return {
      status: 200,
      body: {
        '@odata.type':
          column.type === 'string' ? '#Microsoft.Dynamics.CRM.StringAttributeMetadata' : undefined,
        MetadataId: custom?.MetadataId ?? randomUUID(),
        LogicalName: name,
        SchemaName: custom?.SchemaName ?? name,
        IsCustomAttribute: custom !== undefined,
        ...(column.max !== undefined ? { MaxLength: column.max } : {}),
      },
    };
  }

  private create(set: string, entity: string, body: Record<string, unknown>, url: string): MetadataAnswer {
    if (body['@odata.type'] !== 'Microsoft.Dynamics.CRM.StringAttributeMetadata')
      throw new WebApiFault(
        400,
        '0x80048d19',
        'This test server creates text columns (StringAttributeMetadata) only.',
      );
    const schema = typeof body.SchemaName === 'string' ? body.SchemaName : '';
    if (!new RegExp(`^${DEFAULT_PREFIX}_[A-Za-z0-9]+$`).test(schema))
      throw new WebApiFault(
        400,
        '0x80044153',
        `The SchemaName '${schema}' must start with the publisher's customization prefix '${DEFAULT_PREFIX}_'.`,
      );
    const labels = (body.DisplayName as { LocalizedLabels?: unknown[] } | undefined)?.LocalizedLabels;
    if (!Array.isArray(labels) || labels.length === 0)
      throw new WebApiFault(400, '0x80044153', 'A column needs a DisplayName with a localized label.');
    const max = body.MaxLength;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_STRING)
      throw new WebApiFault(400, '0x80044153', `MaxLength must be between 1 and ${MAX_STRING}.`);
    const logical = schema.toLowerCase();
    if (this.tables.table(set).columns[logical])
      throw new WebApiFault(
        400,
        '0x80044363',
        `An attribute with the specified name ${schema} already exists on entity ${entity}.`,
      );
    const definition = { MetadataId: randomUUID(), LogicalName: logical, SchemaName: schema, MaxLength: max };
    this.created.set(`${set}.${logical}`, definition);
    const columns: Record<string, Column> = this.tables.custom.get(set) ?? {};
    columns[logical] = { type: 'string', max };
    this.tables.custom.set(set, columns);
    return {
      status: 204,
      headers: {
        'OData-EntityId': `${url}EntityDefinitions(LogicalName='${entity}')/Attributes(${definition.MetadataId})`,
      },
    };
  }
}
