// Pure mappings from callsync's call logs, callback tasks and contacts to HubSpot CRM v3 properties.
// HubSpot takes every property value as a string.
import { callLogBody, splitName, truncate } from '../crm/call-log-body';
import type { CallbackTask, CallLog, CrmContact } from '../crm/crm-connector';

/** The custom property (on calls and tasks) that carries callsync's idempotency key. */
export const KEY_PROPERTY = 'callsync_key';

/** HubSpot-defined association type ids (v4 associations): call → contact and task → contact. */
export const CALL_TO_CONTACT = 194;
export const TASK_TO_CONTACT = 204;

/** HubSpot's default call outcomes (hs_call_disposition GUIDs). */
export const CALL_OUTCOMES = {
  busy: '9d9162e7-6cf3-4944-bf63-4dff82258764',
  connected: 'f240bbac-87c9-4f6e-bf70-924b57d47db7',
  leftVoicemail: 'b2cf5968-551e-4856-9783-52b3da59a7d0',
  noAnswer: '73a0d17f-1163-4015-bdd5-ec830791da20',
} as const;

type Properties = Record<string, string>;

const CALL_STATUS: Record<CallLog['status'], string> = {
  completed: 'COMPLETED',
  missed: 'NO_ANSWER',
  // The caller reached voicemail and the call itself completed; the outcome says "left voicemail".
  voicemail: 'COMPLETED',
  busy: 'BUSY',
  failed: 'FAILED',
};

const CALL_OUTCOME: Partial<Record<CallLog['status'], string>> = {
  completed: CALL_OUTCOMES.connected,
  missed: CALL_OUTCOMES.noAnswer,
  voicemail: CALL_OUTCOMES.leftVoicemail,
  busy: CALL_OUTCOMES.busy,
};

/** The hs_call_disposition callsync writes on a call log of this status (null: none). */
export function ownDisposition(status: CallLog['status']): string | null {
  return CALL_OUTCOME[status] ?? null;
}

/** Longest hs_call_body / hs_task_body written (HubSpot caps rich text at 65,536 characters). */
export const MAX_BODY_CHARS = 60_000;

/**
 * Properties of a call engagement for `log`. The outcome (hs_call_disposition) is written when the
 * log is created only: an update (the recording or transcript arriving) must not overwrite the
 * outcome an agent has set since (which crmOutcomes brings back to the CDR).
 */
export function callProperties(
  log: CallLog,
  ownerId: string | null = null,
  mode: 'create' | 'update' = 'create',
): Properties {
  const props: Properties = {
    hs_timestamp: new Date(log.startedAt).toISOString(),
    hs_call_title: truncate(log.title, 255),
    hs_call_body: truncate(callLogBody(log), MAX_BODY_CHARS),
    hs_call_direction: log.direction === 'inbound' ? 'INBOUND' : 'OUTBOUND',
    hs_call_status: CALL_STATUS[log.status],
    hs_call_duration: String(Math.max(0, Math.round(log.durationSeconds * 1000))),
    [KEY_PROPERTY]: log.key,
  };
  const outcome = CALL_OUTCOME[log.status];
  if (outcome && mode === 'create') props.hs_call_disposition = outcome;
  if (log.fromNumber) props.hs_call_from_number = log.fromNumber;
  if (log.toNumber) props.hs_call_to_number = log.toNumber;
  if (log.recordingUrl) props.hs_call_recording_url = log.recordingUrl;
  if (ownerId) props.hubspot_owner_id = ownerId;
  return props;
}

/**
 * hs_task_status of each callback status: an expired callback (nobody reached the caller) is
 * DEFERRED, not COMPLETED (https://developers.hubspot.com/docs/api/crm/tasks, hs_task_status).
 */
const TASK_STATUS: Record<CallbackTask['status'], string> = {
  open: 'NOT_STARTED',
  closed: 'COMPLETED',
  expired: 'DEFERRED',
};

/** Properties of a callback task (hs_task_type CALL). */
export function taskProperties(
  task: CallbackTask,
  ownerId: string | null = null,
  priority: 'LOW' | 'MEDIUM' | 'HIGH' = 'HIGH',
): Properties {
  const props: Properties = {
    hs_timestamp: new Date(task.dueAt).toISOString(),
    hs_task_subject: truncate(task.subject, 255),
    hs_task_body: truncate(task.body, MAX_BODY_CHARS),
    hs_task_status: TASK_STATUS[task.status],
    hs_task_type: 'CALL',
    hs_task_priority: priority,
    [KEY_PROPERTY]: task.key,
  };
  if (ownerId) props.hubspot_owner_id = ownerId;
  return props;
}

/** The `associations` of a create request linking the new object to `contact` (none without one). */
export function contactAssociations(contact: CrmContact | null, associationTypeId: number) {
  if (!contact) return [];
  return [
    {
      to: { id: contact.crmId },
      types: [{ associationCategory: 'HUBSPOT_DEFINED' as const, associationTypeId }],
    },
  ];
}

/** Contact properties read back from a search. */
export const CONTACT_PROPERTIES = ['firstname', 'lastname', 'phone', 'mobilephone', 'hubspot_owner_id'];

/**
 * Filter groups (OR-ed) matching a number in any of a contact's phone properties: the E.164 form in
 * phone and mobilephone, and the national digits in HubSpot's calculated searchable numbers (which
 * match however the number was typed in).
 */
export function phoneFilterGroups(e164: string, nationalNumber: string | null) {
  const eq = (propertyName: string, value: string) => ({
    filters: [{ propertyName, operator: 'EQ' as const, value }],
  });
  const groups = [eq('phone', e164), eq('mobilephone', e164)];
  if (nationalNumber) {
    groups.push(eq('hs_searchable_calculated_phone_number', nationalNumber));
    groups.push(eq('hs_searchable_calculated_mobile_number', nationalNumber));
  }
  return groups;
}

/** A HubSpot object as the client returns it. */
export interface HubSpotObject {
  id: string;
  properties: Record<string, string | null>;
  updatedAt?: Date | string | undefined;
}

/** A HubSpot contact as callsync's CrmContact. */
export function toCrmContact(obj: HubSpotObject): CrmContact {
  const name = [obj.properties.firstname, obj.properties.lastname].filter(Boolean).join(' ');
  const updated = obj.updatedAt ?? obj.properties.lastmodifieddate ?? null;
  return {
    crmId: obj.id,
    kind: 'contact',
    name: name === '' ? null : name,
    ownerId: obj.properties.hubspot_owner_id || null,
    updatedAt: updated === null ? null : new Date(updated).toISOString(),
  };
}

/** Properties of a contact created for an unknown caller. */
export function newContactProperties(input: { phone: string; name: string | null }): Properties {
  const { first, last } = splitName(input.name);
  const props: Properties = { phone: input.phone };
  if (first) props.firstname = first;
  if (last) props.lastname = last;
  return props;
}
