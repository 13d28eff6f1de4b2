// Pure mappings from callsync's call logs, callback tasks and contacts to Salesforce records, and
// the SOQL/SOSL callsync sends. Call logs are Task records of subtype Call; callsync's idempotency key
// goes into CallObject (Salesforce's field for a call-center call id), for callback tasks too.
import { callLogBody, splitName, truncate } from '../crm/call-log-body';
import type { CallbackTask, CallLog, CrmContact } from '../crm/crm-connector';
import { PHONES } from './phone-search';
import { STANDARD_TASK_VALUES, taskPriority, type TaskValues } from './task-values';

/** Field lengths of the Task object. */
export const SUBJECT_MAX = 255;
export const DESCRIPTION_MAX = 32_000;
const CALL_OBJECT_MAX = 255;

const DISPOSITION: Record<CallLog['status'], string> = {
  completed: 'Connected',
  missed: 'Missed',
  voicemail: 'Voicemail',
  busy: 'Busy',
  failed: 'Failed',
};

/** The CallDisposition callsync writes on a call log of this status. */
export function ownCallDisposition(status: CallLog['status']): string {
  return DISPOSITION[status];
}

/** A Salesforce date (YYYY-MM-DD, UTC) from an ISO timestamp. */
export function toSalesforceDate(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/** The record fields callsync writes; `create` adds the create-only TaskSubtype. */
export type TaskFields = Record<string, string | number | null>;

/** Whom the Task is about and whom it belongs to, when known. */
export interface TaskLinks {
  /** Contact or Lead id (WhoId). */
  whoId?: string | null;
  /** Salesforce user id (OwnerId). */
  ownerId?: string | null;
}

/** The idempotency key as a CallObject value (a RangeError past the field's length). */
export function keyField(key: string): string {
  if (key.length > CALL_OBJECT_MAX)
    throw new RangeError(`idempotency key longer than ${CALL_OBJECT_MAX}: ${key}`);
  return key;
}

function withLinks(fields: TaskFields, links: TaskLinks): TaskFields {
  if (links.whoId) fields.WhoId = links.whoId;
  if (links.ownerId) fields.OwnerId = links.ownerId;
  return fields;
}

/**
 * Task fields of a call log. TaskSubtype can only be set on create (Salesforce refuses it in an
 * update), so `mode` says which request the fields are for.
 */
export function callLogTaskFields(
  log: CallLog,
  mode: 'create' | 'update',
  links: TaskLinks = {},
  values: TaskValues = STANDARD_TASK_VALUES,
): TaskFields {
  const fields: TaskFields = {
    Subject: truncate(log.title, SUBJECT_MAX),
    CallType: log.direction === 'inbound' ? 'Inbound' : 'Outbound',
    CallDurationInSeconds: Math.max(0, Math.round(log.durationSeconds)),
    CallObject: keyField(log.key),
    Description: truncate(callLogBody(log), DESCRIPTION_MAX),
    ActivityDate: toSalesforceDate(log.startedAt),
    Status: values.closedStatus,
    Priority: values.defaultPriority,
  };
  // The outcome is written when the Task is created only: an update (the recording or transcript
  // arriving) must not overwrite the CallDisposition an agent has set since.
  if (mode === 'create') {
    fields.TaskSubtype = 'Call';
    fields.CallDisposition = DISPOSITION[log.status];
  }
  return withLinks(fields, {
    whoId: links.whoId ?? log.contact?.crmId ?? null,
    ownerId: links.ownerId ?? null,
  });
}

/**
 * Task Status of each callback status, from the org's picklist (task-values.ts): open is the default
 * open status, closed a closed one; an expired callback is Deferred (where the org has it), not closed.
 */
function taskStatus(status: CallbackTask['status'], values: TaskValues): string {
  if (status === 'open') return values.openStatus;
  if (status === 'closed') return values.closedStatus;
  return values.deferredStatus;
}

/** Task fields of a callback task (subtype Task; the key in CallObject too). */
export function callbackTaskFields(
  task: CallbackTask,
  mode: 'create' | 'update',
  links: TaskLinks = {},
  priority: 'High' | 'Normal' | 'Low' = 'High',
  values: TaskValues = STANDARD_TASK_VALUES,
): TaskFields {
  const fields: TaskFields = {
    Subject: truncate(task.subject, SUBJECT_MAX),
    Description: truncate(task.body, DESCRIPTION_MAX),
    Status: taskStatus(task.status, values),
    ActivityDate: toSalesforceDate(task.dueAt),
    Priority: taskPriority(values, priority),
    CallObject: keyField(task.key),
  };
  if (mode === 'create') fields.TaskSubtype = 'Task';
  return withLinks(fields, {
    whoId: links.whoId ?? task.contact?.crmId ?? null,
    ownerId: links.ownerId ?? null,
  });
}

/** A string literal in SOQL: backslash and quote escaped. */
export function soqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The query finding the Task that carries `key` (the oldest, should a duplicate exist). */
export function taskByKeyQuery(key: string, subtype: 'Call' | 'Task'): string {
  return (
    `SELECT Id FROM Task WHERE CallObject = ${soqlString(key)} AND TaskSubtype = ${soqlString(subtype)} ` +
    'ORDER BY CreatedDate ASC LIMIT 1'
  );
}

/** The query finding an active user by e-mail, for OwnerId. */
export function userByEmailQuery(email: string): string {
  return `SELECT Id FROM User WHERE Email = ${soqlString(email)} AND IsActive = true LIMIT 1`;
}

/**
 * SOSL finding Contacts and unconverted Leads with one of the FIND text's tokens in a phone field
 * (phone-search.ts builds the text), with their phones. Digits need no SOSL escaping.
 */
export function phoneHitsSosl(find: string): string {
  const fields = 'Id, Name, OwnerId, LastModifiedDate';
  return (
    `FIND {${find}} IN PHONE FIELDS RETURNING ` +
    `Contact(${[fields, ...PHONES.Contact].join(', ')}), ` +
    `Lead(${[fields, ...PHONES.Lead].join(', ')} WHERE IsConverted = false)`
  );
}

/** A search hit's phone values, by its object's phone fields. */
export function hitPhones(hit: SalesforceRecord): unknown[] {
  const type = hit.attributes?.type === 'Lead' ? 'Lead' : 'Contact';
  return PHONES[type].map((f) => (hit as Record<string, unknown>)[f]);
}

/** A record from a query or search result. */
export interface SalesforceRecord {
  attributes?: { type?: string };
  Id?: string;
  Name?: string | null;
  OwnerId?: string | null;
  LastModifiedDate?: string | null;
}

/** A Contact or Lead search hit as callsync's CrmContact; null for other objects. */
export function toCrmContact(record: SalesforceRecord): CrmContact | null {
  const type = record.attributes?.type;
  if (!record.Id || (type !== 'Contact' && type !== 'Lead')) return null;
  return {
    crmId: record.Id,
    kind: type === 'Contact' ? 'contact' : 'lead',
    name: record.Name ?? null,
    ownerId: record.OwnerId ?? null,
    updatedAt: record.LastModifiedDate ? new Date(record.LastModifiedDate).toISOString() : null,
  };
}

/** Fields of a Contact created for an unknown caller (LastName is required: the number stands in). */
export function newContactFields(input: { phone: string; name: string | null }): TaskFields {
  const { first, last } = splitName(input.name);
  const fields: TaskFields = { LastName: last ?? input.phone, Phone: input.phone };
  if (first) fields.FirstName = first;
  return fields;
}

/** A record the org's duplicate rule matched (a DuplicateError's matchResults[].matchRecords[].record). */
export interface DuplicateMatch {
  type: 'Contact' | 'Lead';
  id: string;
}

/**
 * The Contacts and Leads a DUPLICATES_DETECTED error names, Contacts first. The REST body carries
 * them in `duplicateResult.matchResults[].matchRecords[].record`
 * (https://developer.salesforce.com/docs/platform/api/guide/sforce-api-objects-duplicateerror.html);
 * some API versions spell the key `duplicateResut`, read too.
 */
export function duplicateMatches(error: unknown): DuplicateMatch[] {
  const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const result = (e.duplicateResult ?? e.duplicateResut) as
    { matchResults?: { matchRecords?: { record?: SalesforceRecord }[] }[] } | undefined;
  const out: DuplicateMatch[] = [];
  for (const m of result?.matchResults ?? [])
    for (const { record } of m.matchRecords ?? []) {
      const type = record?.attributes?.type;
      if (record?.Id && (type === 'Contact' || type === 'Lead') && !out.some((o) => o.id === record.Id))
        out.push({ type, id: record.Id });
    }
  return out.sort((a, b) => (a.type === b.type ? 0 : a.type === 'Contact' ? -1 : 1));
}

/** The query reading back one Contact or Lead as a CrmContact. */
export function personByIdQuery(match: DuplicateMatch): string {
  return `SELECT Id, Name, OwnerId, LastModifiedDate FROM ${match.type} WHERE Id = ${soqlString(match.id)}`;
}

/** Salesforce's answer to a Task whose WhoId is a converted Lead. */
export const CONVERTED_LEAD = 'CANNOT_UPDATE_CONVERTED_LEAD';

/** The Contacts these Leads were converted into (converted Leads only). */
export function convertedLeadsQuery(leadIds: readonly string[]): string {
  return (
    'SELECT Id, ConvertedContactId FROM Lead WHERE IsConverted = true AND ' +
    `Id IN (${leadIds.map(soqlString).join(', ')})`
  );
}

/** A WhoId that names a Lead (key prefix 00Q). */
export function isLeadId(id: unknown): id is string {
  return typeof id === 'string' && id.startsWith('00Q');
}

/** The Tasks carrying these keys, oldest first (the first per key is the one callsync keeps). */
export function tasksByKeysQuery(keys: readonly string[], subtype: 'Call' | 'Task'): string {
  return (
    `SELECT Id, CallObject FROM Task WHERE CallObject IN (${keys.map(soqlString).join(', ')}) ` +
    `AND TaskSubtype = ${soqlString(subtype)} ORDER BY CreatedDate ASC`
  );
}
