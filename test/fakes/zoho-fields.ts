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
    // The contact sync's fields: e-mail, notes, and callsync's custom link key and deletion mark.
    Contacts: [
      ...person(),
      field('Email', 'email'),
      field('Description', 'textarea'),
      field(keyField, 'text', { custom_field: true }),
      field('Callsync_Deleted', 'datetime', { custom_field: true }),
    ],
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
