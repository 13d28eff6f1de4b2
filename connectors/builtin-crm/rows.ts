// Pure mappings from callsync's call logs, callback tasks and messages to the built-in destination's rows.
import { callLogBody } from '../crm/call-log-body';
import type { CallbackTask, CallLog, CrmContact, MessageLog } from '../crm/crm-connector';
import type {
  ContactRow,
  NewBuiltinCallLogRow,
  NewBuiltinMessageRow,
  NewBuiltinTaskRow,
} from '../postgres/tables';

/** CRM ids of warehouse contacts (synced from the platform) and of contacts this destination made. */
export const SYNCED_PREFIX = 'contact:';
export const CREATED_PREFIX = 'builtin:';

function contactColumns(contact: CrmContact | null) {
  return {
    contact_id: contact?.crmId ?? null,
    contact_kind: contact?.kind ?? null,
    contact_name: contact?.name ?? null,
  };
}

/** The builtin_call_logs row of a call log. */
export function callLogRow(account: string, log: CallLog): NewBuiltinCallLogRow {
  return {
    account,
    key: log.key,
    title: log.title,
    direction: log.direction,
    status: log.status,
    started_at: log.startedAt,
    duration_seconds: Math.max(0, Math.round(log.durationSeconds)),
    from_number: log.fromNumber,
    to_number: log.toNumber,
    user_email: log.userEmail,
    ...contactColumns(log.contact),
    recording_url: log.recordingUrl,
    summary: log.summary,
    transcript_excerpt: log.transcriptExcerpt,
    sentiment: log.sentiment,
    body: callLogBody(log),
  };
}

/** The builtin_tasks row of a callback task (closed_at is set by the connector when it closes). */
export function taskRow(account: string, task: CallbackTask): NewBuiltinTaskRow {
  return {
    account,
    key: task.key,
    subject: task.subject,
    body: task.body,
    status: task.status,
    due_at: task.dueAt,
    caller_number: task.callerNumber,
    assignee_email: task.assigneeEmail,
    ...contactColumns(task.contact),
  };
}

/** The builtin_messages row of an SMS or voice message. */
export function messageRow(account: string, log: MessageLog): NewBuiltinMessageRow {
  return {
    account,
    key: log.key,
    channel: log.channel,
    direction: log.direction,
    at: log.at,
    from_number: log.fromNumber,
    to_number: log.toNumber,
    title: log.title,
    body: log.body,
    user_email: log.userEmail,
    contact_id: log.contact.crmId,
    contact_kind: log.contact.kind,
    contact_name: log.contact.name,
  };
}

/** A synced warehouse contact as a CrmContact; its owner is the platform user id. */
export function syncedContact(
  row: Pick<ContactRow, 'id' | 'first_name' | 'last_name' | 'user_id' | 'synced_at'>,
): CrmContact {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    crmId: `${SYNCED_PREFIX}${row.id}`,
    kind: 'contact',
    name: name === '' ? null : name,
    ownerId: row.user_id === null ? null : String(row.user_id),
    updatedAt: row.synced_at.toISOString(),
  };
}
