// Reads a seed's systems into DayFacts: the emulator (ledger, tables, audio), the warehouse, the
// archive directory and the HubSpot test server.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  countById,
  md5OfFileUri,
  type DayFacts,
  type LedgerCall,
  type LedgerSms,
  type WarehouseRecording,
} from './facts';
import { ACCOUNT, type SeedStack } from './stack';

/** The clock mapping of a seed: the real and platform times of the moment its day started. */
export interface DayClock {
  speed: number;
  realAt: number;
  platformAt: number;
}

/** The simulator's ledger of what really happened (GET /_emulator/simulator/ledger). */
export async function readLedger(stack: SeedStack): Promise<{ calls: LedgerCall[]; sms: LedgerSms[] }> {
  const body = (await stack.control('GET', '/simulator/ledger')) as {
    calls: LedgerCall[];
    sms?: LedgerSms[];
  };
  return { calls: body.calls, sms: body.sms ?? [] };
}

function platformIds(stack: SeedStack, table: 'cdrs' | 'monitors' | 'sms' | 'voicemessages'): number[] {
  const customer = stack.emulator.admin.customer_id;
  const t = stack.emulator.store.tables[table];
  return t
    .query(customer, { page: 1, limit: t.count(customer) + 1, filter: [] })
    .data.map((r) => Number(r.id));
}

async function warehouseCounts(stack: SeedStack, table: string): Promise<Map<number, number>> {
  const { rows } = await stack.warehouse.query<{ id: string; n: string }>(
    `SELECT id::text AS id, count(*)::int AS n FROM ${table} WHERE account = $1 GROUP BY id`,
    [ACCOUNT],
  );
  return countById(rows);
}

/** Files in the archive directory per recording id (`…/recordings/…/<id>.<ext>`). */
function archiveFiles(dir: string): Map<number, number> {
  const out = new Map<number, number>();
  const walk = (d: string, inRecordings: boolean): void => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path, inRecordings || e.name === 'recordings');
      else if (inRecordings) {
        const id = Number(/^(\d+)/.exec(basename(e.name))?.[1]);
        if (Number.isFinite(id)) out.set(id, (out.get(id) ?? 0) + 1);
      }
    }
  };
  walk(dir, false);
  return out;
}

/** MD5 of each recording's audio as the platform serves it now (asked once per recording). */
export class PlatformAudio {
  private readonly known = new Map<number, string | null>();
  constructor(private readonly stack: SeedStack) {}

  async md5s(ids: readonly number[]): Promise<Map<number, string | null>> {
    const admin = this.stack.emulator.admin;
    const auth = `Basic ${Buffer.from(`${admin.user_id}:${admin.api_key}`).toString('base64')}`;
    for (const id of ids) {
      if (this.known.get(id)) continue;
      const res = await fetch(`${this.stack.emulator.baseUrl}/monitors/${id}.mp3`, {
        headers: { authorization: auth },
      });
      if (res.status !== 200) {
        await res.arrayBuffer().catch(() => undefined);
        this.known.set(id, null);
        continue;
      }
      const hash = createHash('md5')
        .update(Buffer.from(await res.arrayBuffer()))
        .digest('hex');
      this.known.set(id, hash);
    }
    return new Map(ids.map((id) => [id, this.known.get(id) ?? null]));
  }
}

/** Every fact the oracle judges, read now. */
export async function gatherFacts(
  stack: SeedStack,
  clock: DayClock,
  audio: PlatformAudio,
  crmKnownBefore: Map<string, string>,
): Promise<DayFacts> {
  // The CRM first, then the ledger: every call the CRM has heard of (auto-dials go on after the day's
  // traffic) is then in the ledger read after it, and a call played since is at worst still pending.
  const contactIds = new Set(stack.hubspot.objects('contacts').map((c) => c.id));
  const crm = {
    calls: stack.hubspot.objects('calls').map((o) => ({
      key: o.properties.callsync_key ?? '',
      status: o.properties.hs_call_status ?? '',
      disposition: o.properties.hs_call_disposition ?? null,
      contactIds: o.associations.filter((a) => contactIds.has(a.toId)).map((a) => a.toId),
      recordingUrl: o.properties.hs_call_recording_url ?? null,
      body: o.properties.hs_call_body ?? '',
    })),
    tasks: stack.hubspot.objects('tasks').map((o) => ({
      key: o.properties.callsync_key ?? '',
      status: o.properties.hs_task_status ?? '',
      body: o.properties.hs_task_body ?? '',
    })),
    contacts: stack.hubspot.objects('contacts').map((o) => ({ id: o.id, phone: o.properties.phone ?? null })),
  };
  const ledger = await readLedger(stack);
  const customer = stack.emulator.admin.customer_id;
  const monitors = stack.emulator.store.tables.monitors;
  const transcribed = new Set(
    monitors
      .query(customer, { page: 1, limit: monitors.count(customer) + 1, filter: [] })
      .data.filter((m) => typeof m.transcript === 'string' && m.transcript.trim() !== '')
      .map((m) => Number(m.id)),
  );
  const { rows } = await stack.warehouse.query<{
    id: string;
    audio_uri: string | null;
    audio_md5: string | null;
    audio_lost_reason: string | null;
  }>('SELECT id::text AS id, audio_uri, audio_md5, audio_lost_reason FROM recordings WHERE account = $1', [
    ACCOUNT,
  ]);
  const archive = new Map<number, WarehouseRecording>(
    rows.map((r) => [
      Number(r.id),
      { id: Number(r.id), audioUri: r.audio_uri, audioMd5: r.audio_md5, lostReason: r.audio_lost_reason },
    ]),
  );
  // The archived file must hold what was downloaded: its own checksum is compared with the column's.
  for (const row of archive.values()) {
    if (row.audioUri?.startsWith('file:') && row.audioMd5 && md5OfFileUri(row.audioUri) !== row.audioMd5)
      row.audioMd5 = `${row.audioMd5} (file differs)`;
  }
  const archived = ledger.calls
    .map((c) => c.recording_id)
    .filter((id): id is number => id !== null && archive.get(id)?.audioUri != null);
  const s = stack.settings;
  return {
    account: ACCOUNT,
    now: Date.now(),
    clock,
    ledger,
    platform: {
      cdrs: platformIds(stack, 'cdrs'),
      recordings: platformIds(stack, 'monitors'),
      sms: platformIds(stack, 'sms'),
      voicemessages: platformIds(stack, 'voicemessages'),
      transcribed,
    },
    warehouse: {
      cdrs: await warehouseCounts(stack, 'cdrs'),
      recordings: await warehouseCounts(stack, 'recordings'),
      sms: await warehouseCounts(stack, 'sms'),
      voicemessages: await warehouseCounts(stack, 'voicemessages'),
      archive,
    },
    platformAudioMd5: await audio.md5s(archived),
    archiveFiles: archiveFiles(stack.archiveDir),
    crm,
    crmKnownBefore,
    settings: {
      autoDial: s.autoDial,
      maxDialAttempts: 1,
      createUnknownContacts: s.createUnknownContacts,
      expireAfterMs: s.expireAfterMs,
    },
  };
}
