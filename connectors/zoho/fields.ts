// What callsync writes into Zoho CRM records, as pure functions: Calls
// (https://www.zoho.com/crm/developer/docs/api/v8/insert-records.html, Calls module fields), Tasks,
// Contacts and Leads. Values are plain: the SDK serialises them by the module's field metadata
// (Date for datetime and date fields, Choice for picklists, a Record for lookups).
import type { CallbackTask, CallLog, CrmContact, MessageLog } from '../crm/crm-connector';
import { callLogBody, splitName, truncate } from '../crm/call-log-body';

/** Zoho's multi-line text fields hold at most 32,000 characters. */
export const TEXTAREA_MAX = 32_000;
/** Single-line text fields hold at most 255 characters (Subject, the key field). */
export const TEXT_MAX = 255;

/** A record's fields before the SDK wraps them: `lookup` fields as `{ id }`, `choice` as `{ choice }`. */
export type FieldValue = string | number | Date | { id: string; module?: string } | { choice: string } | null;
export type Fields = Record<string, FieldValue>;

/** The digits Zoho's phone search is given: E.164 without "+", which a query string would read as a space. */
export function searchDigits(e164: string): string {
  return e164.replace(/\D/g, '');
}

/** "mm:ss" as Zoho's Call_Duration holds it (minutes may pass 59). */
export function callDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Who the activity is about: Who_Id ("Contact Name") takes Contacts only; a Lead goes in What_Id
 * ("Related To") with `$se_module` naming the module.
 */
export function personFields(contact: CrmContact | null): Fields {
  if (!contact) return {};
  if (contact.kind === 'lead') return { What_Id: { id: contact.crmId }, $se_module: 'Leads' };
  return { Who_Id: { id: contact.crmId } };
}

/** Zoho's Call_Type of a call: Missed for the calls nobody answered, else its direction. */
export function callType(log: Pick<CallLog, 'direction' | 'status'>): string {
  if (log.direction === 'inbound' && (log.status === 'missed' || log.status === 'voicemail')) return 'Missed';
  return log.direction === 'inbound' ? 'Inbound' : 'Outbound';
}

/** A call log's fields in the Calls module. */
export function callFields(log: CallLog, keyField: string): Fields {
  const outcome = log.status === 'completed' ? '' : ` (${log.status})`;
  return {
    Subject: truncate(`${log.title}${outcome}`, TEXT_MAX),
    Call_Type: { choice: callType(log) },
    Call_Start_Time: new Date(log.startedAt),
    Call_Duration: callDuration(log.durationSeconds),
    Description: truncate(callLogBody(log), TEXTAREA_MAX),
    [keyField]: log.key,
    ...personFields(log.contact),
  };
}

/** Zoho's task Status: Not Started while open, Completed once reached, Deferred when callsync gave up. */
export function taskStatus(status: CallbackTask['status']): string {
  return status === 'open' ? 'Not Started' : status === 'closed' ? 'Completed' : 'Deferred';
}

/** A callback task's fields in the Tasks module. */
export function taskFields(task: CallbackTask, keyField: string, priority: string): Fields {
  return {
    Subject: truncate(task.subject, TEXT_MAX),
    Status: { choice: taskStatus(task.status) },
    Due_Date: new Date(task.dueAt),
    Priority: { choice: priority },
    Description: truncate(task.body, TEXTAREA_MAX),
    [keyField]: task.key,
    ...personFields(task.contact),
  };
}

/** A new Contact's or Lead's fields for an unknown caller (Last_Name is mandatory in both). */
export function personRecordFields(input: { phone: string; name: string | null }): Fields {
  const { first, last } = splitName(input.name);
  return { ...(first ? { First_Name: first } : {}), Last_Name: last ?? input.phone, Phone: input.phone };
}

/** The line a note ends with: callsync's key, as Notes have no custom fields to hold it. */
export function noteKeyLine(key: string): string {
  return `callsync key: ${key}`;
}

/** The key a note's content ends with, if callsync wrote it. */
export function keyOfNote(content: unknown): string | null {
  if (typeof content !== 'string') return null;
  return /(?:^|\n)callsync key: (\S+)$/.exec(content)?.[1] ?? null;
}

/** An SMS or voicemail as a note on its Contact or Lead (Parent_Id names the record and its module). */
export function noteFields(log: MessageLog): Fields {
  const module = log.contact.kind === 'lead' ? 'Leads' : 'Contacts';
  const keyLine = noteKeyLine(log.key);
  return {
    Note_Title: truncate(log.title, TEXT_MAX),
    Note_Content: `${truncate(log.body, TEXTAREA_MAX - keyLine.length - 2)}\n\n${keyLine}`,
    Parent_Id: { id: log.contact.crmId, module },
  };
}
