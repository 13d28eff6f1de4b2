// What a simulated day left behind, read from each system itself: the platform's ground truth (the
// simulator's ledger and the emulator's tables), the warehouse, the archive and the CRM. The oracle
// (oracle.ts) judges these facts; nothing here decides anything.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LedgerCall, LedgerSms } from '../../emulator';

export type { LedgerCall, LedgerSms } from '../../emulator';

/** A call log, task or contact as the CRM holds it. */
export interface CrmCallLog {
  key: string;
  status: string;
  disposition: string | null;
  contactIds: string[];
  recordingUrl: string | null;
  body: string;
}

export interface CrmTask {
  key: string;
  status: string;
  body: string;
}

export interface CrmContact {
  id: string;
  phone: string | null;
}

/** A recording row of the warehouse with its archive columns. */
export interface WarehouseRecording {
  id: number;
  audioUri: string | null;
  audioMd5: string | null;
  lostReason: string | null;
}

export interface DayFacts {
  account: string;
  /** Real time of this reading (epoch ms). */
  now: number;
  /** Maps platform time to real time: the simulator's speed and one moment both clocks agree on. */
  clock: { speed: number; realAt: number; platformAt: number };
  ledger: { calls: LedgerCall[]; sms: LedgerSms[] };
  /** Ids the platform lists, per stream. */
  platform: {
    cdrs: number[];
    recordings: number[];
    sms: number[];
    voicemessages: number[];
    /** Recordings that have a transcript now. */
    transcribed: Set<number>;
  };
  /** Rows per id in the warehouse, per stream. */
  warehouse: {
    cdrs: Map<number, number>;
    recordings: Map<number, number>;
    sms: Map<number, number>;
    voicemessages: Map<number, number>;
    archive: Map<number, WarehouseRecording>;
  };
  /** MD5 of the audio the platform serves now, per recording id (null while it has none). */
  platformAudioMd5: Map<number, string | null>;
  /** Files in the archive per recording id (a second file would be a second upload). */
  archiveFiles: Map<number, number>;
  crm: { calls: CrmCallLog[]; tasks: CrmTask[]; contacts: CrmContact[] };
  /** Numbers the CRM knew before the day (number → contact id). */
  crmKnownBefore: Map<string, string>;
  settings: {
    autoDial: boolean;
    maxDialAttempts: number;
    createUnknownContacts: boolean;
    expireAfterMs: number;
  };
}

/** Real time (epoch ms) of a platform time (epoch s), by the simulator's clock. */
export function realTimeOf(clock: DayFacts['clock'], platformSeconds: number): number {
  return clock.realAt + (platformSeconds * 1000 - clock.platformAt) / clock.speed;
}

/** MD5 (hex) of the file behind a file:// URI, or null when it cannot be read. */
export function md5OfFileUri(uri: string): string | null {
  try {
    return createHash('md5')
      .update(readFileSync(fileURLToPath(uri)))
      .digest('hex');
  } catch {
    return null;
  }
}

/** Rows per id from `SELECT id, count(*)` results. */
export function countById(rows: readonly { id: string | number; n: string | number }[]): Map<number, number> {
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
}
