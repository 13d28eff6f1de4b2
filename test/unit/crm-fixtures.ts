// Call logs and callback tasks for the CRM connector tests.
import type { CallbackTask, CallLog, CrmContact } from '../../connectors/crm/crm-connector';

let seq = 0;

/** A unique idempotency key for this test run. */
export function uniqueKey(account = 'acme', kind = ''): string {
  seq += 1;
  return `${account}:${kind}${Date.now().toString(36)}${seq}`;
}

export function callLog(overrides: Partial<CallLog> = {}): CallLog {
  return {
    key: uniqueKey(),
    title: 'Inbound call from +44 20 7946 0000',
    direction: 'inbound',
    status: 'completed',
    startedAt: '2026-11-20T10:15:00.000Z',
    durationSeconds: 125,
    fromNumber: '+442079460000',
    toNumber: '+442079460999',
    userEmail: null,
    contact: null,
    recordingUrl: null,
    summary: null,
    transcriptExcerpt: null,
    sentiment: null,
    ivrDigits: null,
    ...overrides,
  };
}

export function callbackTask(overrides: Partial<CallbackTask> = {}): CallbackTask {
  return {
    key: uniqueKey('acme', 'callback:+442079460000:'),
    subject: 'Call back +44 20 7946 0000',
    body: 'Missed call at 10:15 (1 attempt).',
    status: 'open',
    dueAt: '2026-11-20T11:15:00.000Z',
    callerNumber: '+442079460000',
    assigneeEmail: null,
    contact: null,
    ...overrides,
  };
}

export function contact(crmId: string, overrides: Partial<CrmContact> = {}): CrmContact {
  return { crmId, kind: 'contact', name: 'Ada Lovelace', ownerId: null, updatedAt: null, ...overrides };
}
