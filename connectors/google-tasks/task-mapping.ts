// Pure mapping between callsync's callback task and a Google Tasks task, and the id callsync keeps
// in its mapping table for a task (which user's Tasks, which list, which task).
import type { tasks_v1 } from '@googleapis/tasks';
import type { CallbackTask } from '../crm/crm-connector';

/** Longest notes we send; Google Tasks caps notes at 8,192 characters. */
export const NOTES_MAX_CHARS = 8000;

/** The line that carries callsync's idempotency key in a task's notes (Tasks has no custom fields). */
export function keyLine(key: string): string {
  return `callsync key: ${key}`;
}

/** Whether a task's notes carry `key` (a whole line, so `…:1` never matches `…:12`). */
export function notesCarryKey(notes: string | null | undefined, key: string): boolean {
  return (notes ?? '').split('\n').some((line) => line.trim() === keyLine(key));
}

/** Where a task lives: whose Tasks (an e-mail, or '' for the credentials' own), its list and its id. */
export interface TaskRef {
  owner: string;
  tasklist: string;
  task: string;
}

/** The id recorded in the mapping table: `<owner>/<tasklist>/<task>` (owner URI-encoded). */
export function encodeTaskRef(ref: TaskRef): string {
  return `${encodeURIComponent(ref.owner)}/${ref.tasklist}/${ref.task}`;
}

/** Reads an id written by encodeTaskRef; null when it is not one. */
export function decodeTaskRef(crmId: string): TaskRef | null {
  const parts = crmId.split('/');
  if (parts.length !== 3 || !parts[1] || !parts[2]) return null;
  return { owner: decodeURIComponent(parts[0]!), tasklist: parts[1], task: parts[2] };
}

/** The Google Tasks fields of a callback task (title, notes, due, status). */
export function toGoogleTask(task: CallbackTask): tasks_v1.Schema$Task {
  const contact = task.contact?.name ? ` (${task.contact.name})` : '';
  const tail = `\n\n${keyLine(task.key)}`;
  // Google Tasks has only needsAction and completed: an expired callback (nobody reached the caller)
  // is not completed, so it stays needsAction and its notes say it expired.
  const expired =
    task.status === 'expired' ? 'Status: expired (callsync stopped following this callback)\n' : '';
  const header = `${expired}${task.contact?.name ? `Contact: ${task.contact.name}\n` : ''}`;
  let body = `${header}${task.body}`;
  if (body.length + tail.length > NOTES_MAX_CHARS) {
    body = `${body.slice(0, NOTES_MAX_CHARS - tail.length - 1)}…`;
  }
  const closed = task.status === 'closed';
  return {
    title: `${task.subject}${contact}`.slice(0, 1024),
    notes: `${body}${tail}`,
    // Tasks keeps only the date of `due`; the time is discarded by Google.
    due: new Date(task.dueAt).toISOString(),
    status: closed ? 'completed' : 'needsAction',
    // Reopening clears the completion time, as the Tasks UI does.
    ...(closed ? {} : { completed: null }),
  };
}

/** Title of the list for an assignee in `list` mode: one list per assignee, named after them. */
export function listTitleFor(base: string, assignee: string | null): string {
  return assignee ? `${base} – ${assignee}` : base;
}
