// The Salesforce test server's records: validation of the fields written (names, types, lengths,
// restricted picklists, references and converted Leads, required fields; each rule cites its page
// below), insert with the defaults and ids Salesforce gives, update, delete to the recycle bin, the
// TaskStatus records that mirror the org's Status picklist, and lead conversion. The endpoints are
// salesforce-sobjects.ts; duplicate rules are salesforce-duplicates.ts. Built by salesforce-server.ts,
// which passes its shared state in.
import { SalesforceError, isRecord } from './salesforce-errors';
import { DEFAULTS, PREFIX, REQUIRED, SCHEMA } from './salesforce-schema';
import { SetupError } from './salesforce-setup';
import type {
  DuplicateRules,
  FakeRecord,
  FieldDef,
  Records,
  SalesforceState,
  SObjectType,
} from './salesforce-state';

/** Validating, writing and reading records, as the sObject, query and search endpoints do. */
export function recordHelpers(s: SalesforceState, duplicates: DuplicateRules): Records {
  const { store, hidden, setup, picklists } = s;
  const { checkDuplicatesOnEdit } = duplicates;
  let counter = 1;

  /** The values a write may set: the active ones of the field's picklist. */
  const picklistValues = (def: FieldDef): string[] =>
    def.orgPicklist
      ? picklists[def.orgPicklist].filter((e) => e.active !== false).map((e) => e.value)
      : def.values!;
  const picklistDefault = (field: 'Status' | 'Priority') =>
    picklists[field].find((e) => e.defaultValue && e.active !== false)?.value;
  /** Runs a setup check, answering its refusal as Salesforce's error. */
  const setupCheck = (check: () => void) => {
    try {
      check();
    } catch (err) {
      if (err instanceof SetupError) throw new SalesforceError(err.status, err.errorCode, err.message);
      throw err;
    }
  };

  const newId = (type: SObjectType) => `${PREFIX[type]}${String(counter++).padStart(12, '0')}AAA`;
  const typeOf = (name: string): SObjectType => {
    if (!(name in SCHEMA))
      throw new SalesforceError(404, 'NOT_FOUND', `The requested resource does not exist`);
    return name as SObjectType;
  };

  function validate(type: SObjectType, input: unknown, mode: 'create' | 'update'): Record<string, unknown> {
    if (!isRecord(input))
      throw new SalesforceError(400, 'JSON_PARSER_ERROR', 'The request body must be a JSON object');
    const schema = SCHEMA[type];
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      if (name === 'attributes' || name === 'Id' || name === 'id') continue;
      const def =
        (type === 'Task' && hidden.has(name)) || !setup.visible(type, name) ? undefined : schema[name];
      if (!def)
        throw new SalesforceError(
          400,
          'INVALID_FIELD',
          `No such column '${name}' on sobject of type ${type}`,
          [name],
        );
      if (def.readOnly || (def.createOnly && mode === 'update')) {
        throw new SalesforceError(
          400,
          'INVALID_FIELD_FOR_INSERT_UPDATE',
          `Unable to create/update fields: ${name}. Please check the security settings of this field and verify that it is read/write for your profile or permission set.`,
          [name],
        );
      }
      if (value === null) {
        out[name] = null;
        continue;
      }
      const wrongType = () =>
        new SalesforceError(
          400,
          'JSON_PARSER_ERROR',
          `Cannot deserialize instance of ${def.kind} from ${typeof value} value ${JSON.stringify(value)} at [field ${name}]`,
          [name],
        );
      switch (def.kind) {
        case 'string':
        case 'textarea':
          if (typeof value !== 'string') throw wrongType();
          if (def.max !== undefined && value.length > def.max) {
            throw new SalesforceError(
              400,
              'STRING_TOO_LONG',
              `${name}: data value too large (max length=${def.max})`,
              [name],
            );
          }
          break;
        case 'int':
          if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType();
          break;
        case 'boolean':
          if (typeof value !== 'boolean') throw wrongType();
          break;
        case 'date':
          if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw wrongType();
          break;
        case 'datetime':
          if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw wrongType();
          break;
        case 'picklist':
          if (typeof value !== 'string') throw wrongType();
          // A restricted picklist takes only its own active values through the API ("users can't
          // load or remove values through the API";
          // https://developer.salesforce.com/docs/atlas.en-us.260.0.api_meta.meta/api_meta/meta_picklist.htm).
          if (!picklistValues(def).includes(value)) {
            throw new SalesforceError(
              400,
              'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
              `${name}: bad value for restricted picklist field: ${value}`,
              [name],
            );
          }
          break;
        case 'reference': {
          if (typeof value !== 'string') throw wrongType();
          const target = store.get(value);
          if (!target || !def.refersTo!.includes(target.type)) {
            throw new SalesforceError(
              400,
              'FIELD_INTEGRITY_EXCEPTION',
              `${name}: id value of incorrect type: ${value}`,
              [name],
            );
          }
          // A converted Lead cannot be referenced (a Task's WhoId): "after a lead is converted, only
          // convertedAccountId or convertedContactId can be referenced"
          // (https://help.salesforce.com/s/articleView?id=000384333&type=1).
          if (target.type === 'Lead' && target.fields.IsConverted === true) {
            throw new SalesforceError(
              400,
              'CANNOT_UPDATE_CONVERTED_LEAD',
              'cannot reference converted lead',
              [name],
            );
          }
          break;
        }
      }
      out[name] = value;
    }
    {
      // A create must set every required field; an update must not clear one.
      const missing = REQUIRED[type].filter((f) =>
        mode === 'create' ? out[f] === undefined || out[f] === null || out[f] === '' : f in out && !out[f],
      );
      if (missing.length > 0) {
        throw new SalesforceError(
          400,
          'REQUIRED_FIELD_MISSING',
          `Required fields are missing: [${missing.join(', ')}]`,
          missing,
        );
      }
    }
    return out;
  }

  function insert(type: SObjectType, fields: Record<string, unknown>, lastModified?: string): FakeRecord {
    setupCheck(() => {
      setup.checkSetupWrite(type);
      setup.checkDuplicate(type, { ...DEFAULTS[type], ...fields });
    });
    const now = new Date().toISOString();
    const defaults: Record<string, unknown> = { ...DEFAULTS[type] };
    if (type === 'Task') {
      defaults.Status = picklistDefault('Status') ?? null;
      defaults.Priority = picklistDefault('Priority') ?? null;
    }
    const record: FakeRecord = {
      Id: newId(type),
      type,
      fields: { ...defaults, ...fields },
      CreatedDate: now,
      LastModifiedDate: lastModified ?? now,
      SystemModstamp: lastModified ?? now,
      IsDeleted: false,
    };
    store.set(record.Id, record);
    return record;
  }

  /** A live record of `type`, or Salesforce's error for a missing or deleted one. */
  function live(type: SObjectType, id: string): FakeRecord {
    const record = store.get(id);
    if (!record || record.type !== type)
      throw new SalesforceError(404, 'NOT_FOUND', 'The requested resource does not exist');
    if (record.IsDeleted) throw new SalesforceError(404, 'ENTITY_IS_DELETED', 'entity is deleted');
    return record;
  }

  function touch(record: FakeRecord) {
    record.LastModifiedDate = record.SystemModstamp = new Date().toISOString();
  }

  function update(type: SObjectType, id: string, input: unknown, allowSave = false) {
    setupCheck(() => setup.checkSetupWrite(type));
    const record = live(type, id);
    if (type === 'Lead' && record.fields.IsConverted === true)
      throw new SalesforceError(400, 'CANNOT_UPDATE_CONVERTED_LEAD', 'cannot reference converted lead');
    const fields = validate(type, input, 'update');
    checkDuplicatesOnEdit(record, fields, allowSave);
    Object.assign(record.fields, fields);
    touch(record);
  }

  function destroy(id: string) {
    const record = store.get(id);
    if (!record) throw new SalesforceError(404, 'NOT_FOUND', 'The requested resource does not exist');
    live(record.type, id);
    record.IsDeleted = true;
    touch(record);
  }

  /** TaskStatus records mirror the Status picklist: one per value, its IsClosed and IsDefault. */
  function syncTaskStatuses() {
    for (const r of [...store.values()]) if (r.type === 'TaskStatus') store.delete(r.Id);
    picklists.Status.forEach((e, i) => {
      if (e.active === false) return;
      insert('TaskStatus', {
        MasterLabel: e.label ?? e.value,
        ApiName: e.value,
        IsClosed: e.closed === true,
        IsDefault: e.defaultValue === true,
        SortOrder: i + 1,
      });
    });
  }

  /**
   * A salesperson converts a Lead (convertLead): a new Contact with its name, e-mail, numbers and
   * description under a new Account named after its company, or `into` an existing Contact; the
   * Lead is frozen (IsConverted, ConvertedContactId). Returns the Contact's id.
   */
  function convertLead(leadId: string, into?: string): string {
    const lead = live('Lead', leadId);
    if (lead.fields.IsConverted) throw new Error(`lead ${leadId} is converted already`);
    let contactId = into;
    if (contactId === undefined) {
      const { FirstName, LastName, Email, Phone, MobilePhone, Description, Company } = lead.fields;
      const account = insert('Account', { Name: Company });
      contactId = insert('Contact', {
        FirstName,
        LastName,
        Email,
        Phone,
        MobilePhone,
        Description,
        AccountId: account.Id,
      }).Id;
    } else {
      touch(live('Contact', contactId));
    }
    Object.assign(lead.fields, { IsConverted: true, ConvertedContactId: contactId });
    touch(lead);
    return contactId;
  }

  return {
    typeOf,
    validate,
    insert,
    live,
    touch,
    update,
    destroy,
    setupCheck,
    syncTaskStatuses,
    convertLead,
  };
}
