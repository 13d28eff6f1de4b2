// The field metadata the Zoho test server answers at GET /crm/v8/settings/fields?module=<module>
// (https://www.zoho.com/crm/developer/docs/api/v8/field-meta.html): the SDK reads it before the first
// write to a module to serialise values by type. Only the fields callsync touches, with Zoho's API
// names, data types and mandatory flags; callsync's key field is a custom single-line field.

interface FieldMeta {
  api_name: string;
  data_type: string;
  json_type: string;
  id: string;
  custom_field: boolean;
  system_mandatory: boolean;
  read_only: boolean;
  lookup?: { module: { api_name: string; id: string } };
}

let nextId = 5_725_767_000_000_100_000n;
const field = (api_name: string, data_type: string, extra: Partial<FieldMeta> = {}): FieldMeta => ({
  api_name,
  data_type,
  json_type: data_type === 'lookup' ? 'jsonobject' : data_type === 'integer' ? 'integer' : 'string',
  id: String((nextId += 1n)),
  custom_field: false,
  system_mandatory: false,
  read_only: false,
  ...extra,
});
const lookup = (api_name: string, module: string) =>
  field(api_name, 'lookup', { lookup: { module: { api_name: module, id: String((nextId += 1n)) } } });
const person = () => [
  field('First_Name', 'text'),
  field('Last_Name', 'text', { system_mandatory: true }),
  field('Full_Name', 'text', { read_only: true }),
  field('Phone', 'phone'),
  field('Mobile', 'phone'),
  field('Home_Phone', 'phone'),
  field('Other_Phone', 'phone'),
  field('Owner', 'ownerlookup'),
  field('Modified_Time', 'datetime', { read_only: true }),
];

/** Modules the server knows, by API name, with the fields of each (the key field added per server). */
export function moduleFields(keyField: string): Record<string, FieldMeta[]> {
  const activity = () => [
    field('Subject', 'text', { system_mandatory: true }),
    field('Description', 'textarea'),
    lookup('Who_Id', 'Contacts'),
    field('What_Id', 'lookup'),
    field('$se_module', 'text'),
    field(keyField, 'text', { custom_field: true }),
  ];
  return {
    // The contact sync's e-mail and notes; its custom fields callsync creates (createField).
    Contacts: [...person(), field('Email', 'email'), field('Description', 'textarea')],
    Leads: [...person(), field('Company', 'text')],
    Calls: [
      ...activity(),
      field('Call_Type', 'picklist', { system_mandatory: true }),
      field('Call_Start_Time', 'datetime', { system_mandatory: true }),
      field('Call_Duration', 'text'),
      field('Call_Result', 'picklist'),
    ],
    // Notes have no custom fields: callsync's key is the last line of Note_Content.
    Notes: [
      field('Note_Title', 'text'),
      field('Note_Content', 'textarea', { system_mandatory: true }),
      field('Parent_Id', 'lookup', { system_mandatory: true }),
    ],
    Tasks: [
      ...activity(),
      field('Status', 'picklist'),
      field('Due_Date', 'date'),
      field('Priority', 'picklist'),
    ],
  };
}

/** Which fields of each module are mandatory on insert (Zoho: MANDATORY_NOT_FOUND without them). */
export function mandatoryFields(keyField: string): Record<string, string[]> {
  const all = moduleFields(keyField);
  return Object.fromEntries(
    Object.entries(all).map(([m, fields]) => [
      m,
      fields.filter((f) => f.system_mandatory).map((f) => f.api_name),
    ]),
  );
}

/**
 * The related lists of Contacts and Leads the SDK reads before a related-records request
 * (https://www.zoho.com/crm/developer/docs/api/v8/related-list-meta.html): Notes, with its href.
 */
export function relatedLists(module: string): Record<string, unknown>[] {
  return [
    {
      id: String((nextId += 1n)),
      api_name: 'Notes',
      name: 'Notes',
      display_label: 'Notes',
      type: 'default',
      module: { api_name: 'Notes', id: String((nextId += 1n)) },
      href: `${module}/{${module}Id}/Notes`,
    },
  ];
}

/**
 * POST /settings/fields?module=… (https://www.zoho.com/crm/developer/docs/api/v8/create-custom-field.html):
 * `field_label` and `data_type` mandatory, a label already used in the module refused as
 * DUPLICATE_DATA; the field's API name is its label with underscores for spaces. Adds the field to
 * `fields` (what the field metadata answers from then on).
 */
export function createField(
  fields: Record<string, FieldMeta[]>,
  module: string,
  body: unknown,
): { status: number; body: unknown } {
  const error = (code: string, message: string, details: Record<string, unknown> = {}) => ({
    code,
    details,
    message,
    status: 'error',
  });
  const list = fields[module];
  if (!list)
    return { status: 400, body: error('INVALID_MODULE', 'the module name given seems to be invalid') };
  const input = (body as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(input) || input.length === 0)
    return { status: 400, body: error('MANDATORY_NOT_FOUND', 'fields is required', { api_name: 'fields' }) };
  const results = input.map((raw) => {
    const f = raw as { field_label?: unknown; data_type?: unknown; length?: unknown };
    if (typeof f.field_label !== 'string' || f.field_label.trim() === '')
      return error('MANDATORY_NOT_FOUND', 'required field not found', { api_name: 'field_label' });
    if (typeof f.data_type !== 'string')
      return error('MANDATORY_NOT_FOUND', 'required field not found', { api_name: 'data_type' });
    const apiName = f.field_label.trim().replace(/\s+/g, '_');
    if (list.some((x) => x.api_name === apiName))
      return error('DUPLICATE_DATA', 'a field with this label exists', { api_name: 'field_label' });
    const created = field(apiName, f.data_type, { custom_field: true });
    list.push(created);
    return { code: 'SUCCESS', details: { id: created.id }, message: 'field created', status: 'success' };
  });
  const failed = results.filter((r) => r.status === 'error').length;
  return {
    status: failed === 0 ? 201 : failed === results.length ? 400 : 207,
    body: { fields: results },
  };
}
