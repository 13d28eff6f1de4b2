// The fake Pipedrive's persons as the two-way contact sync reads and writes them: the v2 person as
// answered (https://developers.pipedrive.com/docs/api/v1/Persons#getPersons), its numbers and
// e-mails as written, custom field values by their field's key, and the person fields list and
// create (v1: https://developers.pipedrive.com/docs/api/v1/PersonFields).
import { randomBytes } from 'node:crypto';
import { badRequest, type FakePerson, type PipedriveState } from './pipedrive-records';

/** A person as Pipedrive's v2 answers it (first and last name are the name split by Pipedrive). */
export function personView(p: FakePerson) {
  const at = p.name.indexOf(' ');
  return {
    id: p.id,
    name: p.name,
    first_name: at < 0 ? p.name : p.name.slice(0, at),
    last_name: at < 0 ? '' : p.name.slice(at + 1),
    owner_id: p.owner_id,
    org_id: null,
    add_time: p.add_time,
    update_time: p.update_time,
    phones: p.phones,
    emails: p.emails,
    is_deleted: false,
    visible_to: 3,
    custom_fields: p.custom_fields,
  };
}

/**
 * A body's `phones` or `emails`: an array of `{ value, label?, primary? }` (400 otherwise). Pipedrive
 * keeps one entry primary; the fake makes the first one primary when none is.
 */
export function items(b: Record<string, unknown>, field: 'phones' | 'emails'): FakePerson['phones'] {
  const v = b[field];
  if (!Array.isArray(v)) throw badRequest(`${field} must be an array`);
  const out = v.map((x: unknown) => {
    const i = (typeof x === 'object' && x !== null ? x : {}) as Record<string, unknown>;
    if (typeof i.value !== 'string') throw badRequest(`${field}: value must be a string`);
    return {
      value: i.value,
      primary: i.primary === true,
      label: typeof i.label === 'string' ? i.label : 'work',
    };
  });
  if (out.length > 0 && !out.some((i) => i.primary)) out[0]!.primary = true;
  return out;
}

/**
 * A body's `custom_fields`: an object of values by field key; `null` clears one. The keys must be
 * person fields' keys: how Pipedrive answers an unknown key is not documented, and the fake refuses
 * it so that a wrong key shows in tests.
 */
export function customFields(s: PipedriveState, b: Record<string, unknown>): Record<string, unknown> {
  const v = b.custom_fields;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badRequest('custom_fields must be an object');
  for (const key of Object.keys(v))
    if (!s.personFields.some((f) => f.key === key)) throw badRequest(`custom_fields: unknown field ${key}`);
  return v as Record<string, unknown>;
}

/** The field types addPersonField takes (PersonFields, addPersonField: field_type). */
const FIELD_TYPES = new Set([
  'address',
  'date',
  'daterange',
  'double',
  'enum',
  'monetary',
  'org',
  'people',
  'phone',
  'set',
  'text',
  'time',
  'timerange',
  'user',
  'varchar',
  'varchar_auto',
  'visible_to',
]);

/** POST /v1/personFields: name and field_type required; the key is a generated 40-character hash. */
export function addPersonField(s: PipedriveState, b: Record<string, unknown>) {
  if (typeof b.name !== 'string' || b.name.trim() === '') throw badRequest('name is required');
  if (typeof b.field_type !== 'string' || !FIELD_TYPES.has(b.field_type))
    throw badRequest('field_type is not valid');
  const field = {
    id: s.nextId++,
    key: randomBytes(20).toString('hex'),
    name: b.name,
    field_type: b.field_type,
  };
  s.personFields.push(field);
  return field;
}
