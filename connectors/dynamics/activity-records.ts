// What callsync writes to Dataverse, as Web API bodies (pure). Call logs, SMS and voicemail are
// phone call activities, callbacks are task activities; each carries callsync's key in the
// activity's Sub-Category column (subcategory, text of 250) and what it is in Category
// ("callsync call", "callsync sms", "callsync voicemail", "callsync callback"), so a create whose
// answer was lost is found again by $filter. Columns and their lengths: the phonecall and task table
// references (https://learn.microsoft.com/power-apps/developer/data-platform/reference/entities/phonecall,
// …/entities/task); activity parties: https://learn.microsoft.com/power-apps/developer/data-platform/activityparty-entity.
import { callLogBody, splitName, truncate } from '../crm/call-log-body';
import type { CallbackTask, CallLog, MessageLog } from '../crm/crm-connector';

/** Category values, one per kind of record callsync writes. */
export const CATEGORY = {
  call: 'callsync call',
  sms: 'callsync sms',
  voicemail: 'callsync voicemail',
  callback: 'callsync callback',
} as const;
export type ActivityKind = keyof typeof CATEGORY;

/** subject: 200 characters; description: 2,000; phonenumber: 200; subcategory: 250. */
const SUBJECT_MAX = 200;
const DESCRIPTION_MAX = 2000;
/** The longest key the subcategory column holds. */
export const KEY_MAX = 250;

/** Phone call statecode/statuscode: Open 0/1; Completed 1 with Made (2, outgoing) or Received (4). */
export const PHONECALL_OPEN = { statecode: 0, statuscode: 1 } as const;
/** The state a call log or message ends in: Completed, as Made (outgoing) or Received (incoming). */
export const phonecallDone = (direction: 'inbound' | 'outbound') => ({
  statecode: 1,
  statuscode: direction === 'outbound' ? 2 : 4,
});

/** Task statecode/statuscode: Open 0 Not Started (2); Completed 1 (5); Canceled 2 (6). */
export const TASK_OPEN = { statecode: 0, statuscode: 2 } as const;
export const TASK_STATE = {
  open: TASK_OPEN,
  closed: { statecode: 1, statuscode: 5 },
  expired: { statecode: 2, statuscode: 6 },
} as const;

/** ActivityParty.participationtypemask: Sender (from) 1, ToRecipient (to) 2. */
const FROM = 1;
const TO = 2;

/** Who an activity is about and for: the contact (GUID) and the owning user (GUID), when known. */
export interface Parties {
  contactId: string | null;
  ownerId: string | null;
}

type Body = Record<string, unknown>;

function checkedKey(key: string): string {
  if (key.length > KEY_MAX) throw new RangeError(`callsync key longer than ${KEY_MAX} characters`);
  return key;
}

/** The contact the activity is regarding, and its owner (single-valued navigation properties). */
function binds(entity: 'phonecall' | 'task', p: Parties): Body {
  return {
    ...(p.contactId
      ? { [`regardingobjectid_contact_${entity}@odata.bind`]: `/contacts(${p.contactId})` }
      : {}),
    ...(p.ownerId ? { 'ownerid@odata.bind': `/systemusers(${p.ownerId})` } : {}),
  };
}

/** From and to as activity parties: the contact on the caller's side, the user on callsync's. */
function activityParties(direction: 'inbound' | 'outbound', p: Parties): Body[] {
  const parties: Body[] = [];
  const contactSide = direction === 'inbound' ? FROM : TO;
  if (p.contactId)
    parties.push({
      participationtypemask: contactSide,
      'partyid_contact@odata.bind': `/contacts(${p.contactId})`,
    });
  if (p.ownerId)
    parties.push({
      participationtypemask: contactSide === FROM ? TO : FROM,
      'partyid_systemuser@odata.bind': `/systemusers(${p.ownerId})`,
    });
  return parties;
}

/** The other party's number: the caller of an inbound call, the callee of an outbound one. */
function theirNumber(
  direction: 'inbound' | 'outbound',
  from: string | null,
  to: string | null,
): string | null {
  return direction === 'inbound' ? from : to;
}

/**
 * A call log's columns (for create and update; parties only on create). The state is written apart:
 * statecode cannot be set on create (IsValidForCreate false: a record starts Open), only by an update.
 */
export function callLogColumns(log: CallLog, p: Parties): Body {
  const start = Date.parse(log.startedAt);
  const text = [`Result: ${log.status}`, callLogBody(log)].filter((s) => s !== '').join('\n\n');
  return {
    subject: truncate(log.title, SUBJECT_MAX),
    phonenumber: theirNumber(log.direction, log.fromNumber, log.toNumber),
    directioncode: log.direction === 'outbound',
    actualstart: new Date(start).toISOString(),
    actualend: new Date(start + log.durationSeconds * 1000).toISOString(),
    actualdurationminutes: Math.ceil(log.durationSeconds / 60),
    leftvoicemail: log.status === 'voicemail',
    description: truncate(text, DESCRIPTION_MAX),
    category: CATEGORY.call,
    subcategory: checkedKey(log.key),
    ...binds('phonecall', p),
  };
}

/** An SMS or voicemail as a completed phone call activity on its contact. */
export function messageColumns(log: MessageLog, p: Parties): Body {
  return {
    subject: truncate(log.title, SUBJECT_MAX),
    phonenumber: theirNumber(log.direction, log.fromNumber, log.toNumber),
    directioncode: log.direction === 'outbound',
    actualstart: new Date(Date.parse(log.at)).toISOString(),
    actualend: new Date(Date.parse(log.at)).toISOString(),
    leftvoicemail: log.channel === 'voicemail',
    description: truncate(log.body, DESCRIPTION_MAX),
    category: CATEGORY[log.channel],
    subcategory: checkedKey(log.key),
    ...binds('phonecall', p),
  };
}

/** Parties to add on create (Web API deep insert of phonecall_activity_parties). */
export function withParties(columns: Body, direction: 'inbound' | 'outbound', p: Parties): Body {
  const parties = activityParties(direction, p);
  return parties.length > 0 ? { ...columns, phonecall_activity_parties: parties } : columns;
}

/** A callback task's columns: due time, High priority, its state (open, completed, canceled). */
export function taskColumns(task: CallbackTask, p: Parties): Body {
  return {
    subject: truncate(task.subject, SUBJECT_MAX),
    description: truncate(task.body, DESCRIPTION_MAX),
    scheduledend: new Date(Date.parse(task.dueAt)).toISOString(),
    prioritycode: 2,
    category: CATEGORY.callback,
    subcategory: checkedKey(task.key),
    ...binds('task', p),
  };
}

/** A contact for an unknown caller: the number in Business Phone, the name split (or the number). */
export function newContactColumns(input: { phone: string; name: string | null }): Body {
  const { first, last } = splitName(input.name);
  return {
    ...(first ? { firstname: first } : {}),
    lastname: last ?? input.phone,
    telephone1: input.phone,
  };
}
