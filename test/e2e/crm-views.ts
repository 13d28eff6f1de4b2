// What the e2e test reads back from each CRM destination: the call logs of a key and the callback
// tasks of a number, the same way for the built-in destination and the HubSpot and Salesforce test
// servers (which enforce their vendors' limits), so one test checks all three.
import type { WarehouseDatabase } from '../../connectors/postgres';
import type { FakeHubSpot } from '../fakes/hubspot-server';
import type { FakeSalesforce } from '../fakes/salesforce-server';

export interface SeenLog {
  contactId: string | null;
  recording: boolean;
  transcript: boolean;
  summary: boolean;
}

export interface SeenTask {
  status: 'open' | 'closed';
  body: string;
}

export interface CrmView {
  /** Config of crm.destination (undefined: the built-in destination). */
  destination: Record<string, unknown> | undefined;
  /** Makes the CRM know a platform contact; returns the id a log on that caller must carry. */
  knowContact(contact: { id: number | string; tel: string; name: string | null }): string;
  logs(key: string): Promise<SeenLog[]>;
  allLogKeys(): Promise<string[]>;
  tasks(number: string): Promise<SeenTask[]>;
  /** Requests refused for the vendor's limits (429s), 0 for the built-in destination. */
  limited(): number;
}

export function builtinView(warehouse: WarehouseDatabase): CrmView {
  const db = warehouse.db;
  return {
    destination: undefined,
    knowContact: (c) => `contact:${c.id}`,
    logs: async (key) =>
      (await db.selectFrom('builtin_call_logs').selectAll().where('key', '=', key).execute()).map((r) => ({
        contactId: r.contact_id,
        recording: Boolean(r.recording_url),
        transcript: Boolean(r.transcript_excerpt),
        summary: Boolean(r.summary),
      })),
    allLogKeys: async () =>
      (await db.selectFrom('builtin_call_logs').select('key').execute()).map((r) => r.key),
    tasks: async (number) =>
      (await db.selectFrom('builtin_tasks').selectAll().where('caller_number', '=', number).execute()).map(
        (r) => ({ status: r.status === 'closed' ? 'closed' : 'open', body: r.body }),
      ),
    limited: () => 0,
  };
}

export function hubspotView(fake: FakeHubSpot): CrmView {
  return {
    destination: { type: 'hubspot', accessToken: fake.token, basePath: fake.url, requestsPer10Seconds: 190 },
    knowContact: (c) => fake.seedContact({ phone: c.tel, lastname: c.name ?? 'Caller' }),
    logs: async (key) =>
      fake
        .objects('calls')
        .filter((o) => o.properties.callsync_key === key)
        .map((o) => {
          const body = o.properties.hs_call_body ?? '';
          return {
            contactId: o.associations[0]?.toId ?? null,
            recording: Boolean(o.properties.hs_call_recording_url),
            transcript: body.includes('Transcript (excerpt)'),
            summary: body.includes('Summary:'),
          };
        }),
    allLogKeys: async () => fake.objects('calls').map((o) => String(o.properties.callsync_key)),
    tasks: async (number) =>
      fake
        .objects('tasks')
        .filter((o) => o.properties.hs_task_subject === `Call back ${number}`)
        .map((o) => ({
          status: o.properties.hs_task_status === 'COMPLETED' ? 'closed' : 'open',
          body: o.properties.hs_task_body ?? '',
        })),
    limited: () => fake.counters.limited,
  };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function salesforceView(fake: FakeSalesforce): CrmView {
  const tasks = (subtype: string) => fake.records('Task').filter((r) => r.fields.TaskSubtype === subtype);
  return {
    destination: { type: 'salesforce', instanceUrl: fake.url, accessToken: fake.token },
    knowContact: (c) => fake.seed('Contact', { LastName: c.name ?? 'Caller', Phone: c.tel }),
    logs: async (key) =>
      tasks('Call')
        .filter((r) => r.fields.CallObject === key)
        .map((r) => {
          const body = text(r.fields.Description);
          return {
            contactId: (r.fields.WhoId as string | undefined) ?? null,
            recording: body.includes('Recording:'),
            transcript: body.includes('Transcript (excerpt)'),
            summary: body.includes('Summary:'),
          };
        }),
    allLogKeys: async () => tasks('Call').map((r) => String(r.fields.CallObject)),
    tasks: async (number) =>
      tasks('Task')
        .filter((r) => r.fields.Subject === `Call back ${number}`)
        .map((r) => ({
          status: r.fields.Status === 'Completed' ? 'closed' : 'open',
          body: text(r.fields.Description),
        })),
    limited: () => fake.counters.limited,
  };
}
