// What the CRM conformance suite writes: call logs, callback tasks and messages keyed by the
// harness's account, each scenario on a number of its own so no scenario sees another's records.
import type { CallbackTask, CallLog, CrmContact, MessageLog } from '../../connectors/crm/crm-connector';
import type { DestinationHarness, HeldRecord } from './destination-harness';

let seq = 0;

/** A fresh UK number for one scenario: its E.164 form and the way a person types it. */
export function freshNumber(): { e164: string; typed: string } {
  seq += 1;
  const line = String(1000 + (seq % 9000)).padStart(4, '0');
  return { e164: `+44207946${line}`, typed: `+44 20 7946 ${line}` };
}

/** A key unique in this run, `<account>:<kind><n>`. */
export function freshKey(account: string, kind = ''): string {
  seq += 1;
  return `${account}:${kind}${Date.now().toString(36)}${seq}`;
}

/** A connected inbound call from `from`, logged on `contact`. */
export function conformanceCallLog(
  account: string,
  from: string,
  contact: CrmContact | null,
  overrides: Partial<CallLog> = {},
): CallLog {
  return {
    key: freshKey(account),
    title: `Inbound call from ${from}`,
    direction: 'inbound',
    status: 'completed',
    startedAt: '2026-11-20T10:15:00.000Z',
    durationSeconds: 125,
    fromNumber: from,
    toNumber: '+442071838750',
    userEmail: null,
    contact,
    recordingUrl: null,
    summary: null,
    transcriptExcerpt: null,
    sentiment: null,
    ivrDigits: null,
    ...overrides,
  };
}

/** An open callback task for the caller `number`. */
export function conformanceTask(
  account: string,
  number: string,
  contact: CrmContact | null,
  overrides: Partial<CallbackTask> = {},
): CallbackTask {
  return {
    key: freshKey(account, `callback:${number}:`),
    subject: `Call back ${number}`,
    body: 'Missed call at 10:15 (1 attempt).',
    status: 'open',
    dueAt: '2026-11-20T11:15:00.000Z',
    callerNumber: number,
    assigneeEmail: null,
    contact,
    ...overrides,
  };
}

/** An inbound SMS or voicemail from `number`, logged on `contact`. */
export function conformanceMessage(
  account: string,
  channel: MessageLog['channel'],
  number: string,
  contact: CrmContact,
  overrides: Partial<MessageLog> = {},
): MessageLog {
  return {
    key: freshKey(account, `${channel}:`),
    channel,
    direction: 'inbound',
    at: '2026-11-24T10:00:00.000Z',
    fromNumber: number,
    toNumber: '+442071838750',
    title: channel === 'sms' ? `SMS from ${number}` : `Voicemail from ${number} (12 s)`,
    body: channel === 'sms' ? 'Running late, call me after lunch' : 'Transcript: please call me back',
    userEmail: null,
    contact,
    ...overrides,
  };
}

/** A contact the harness seeded on a fresh number, as the connector finds it by that number. */
export async function seededContact(
  h: DestinationHarness,
  name: string,
): Promise<{ contact: CrmContact; e164: string }> {
  const { e164, typed } = freshNumber();
  const crmId = await h.seedContact({ name, phones: [typed] });
  const found = (await h.connector.findContactsByPhone(e164)).find((c) => c.crmId === crmId);
  expect(found).toBeDefined();
  return { contact: found!, e164 };
}

/** The one record carrying `key` (fails when there are none or several). */
export function onlyWithKey(records: readonly HeldRecord[], key: string): HeldRecord {
  const matching = records.filter((r) => r.key === key);
  expect(matching).toHaveLength(1);
  return matching[0]!;
}

/**
 * The harness's one account in a config: its platform is never called by the suite (nothing listens
 * on port 1), only its name keys what callsync writes.
 */
export function harnessAccount(name: string) {
  return {
    name,
    platform: {
      baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
      credentials: { type: 'apiKey' as const, userId: 1, apiKey: 'k' },
    },
  };
}
