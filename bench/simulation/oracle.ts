// The promises callsync makes, checked against a simulated day's ground truth (facts.ts). Pure: the
// same facts always give the same verdict, and each promise is one function with its rule in words.
import { realTimeOf, type DayFacts, type LedgerCall } from './facts';

/** A promise the day broke. */
export interface BrokenPromise {
  promise:
    | 'warehouse exactly once'
    | 'one CRM log per call'
    | 'log on the right contact'
    | 'log has the final outcome'
    | 'log has the recording and transcript'
    | 'callback state'
    | 'dialled at most once'
    | 'recording archived or lost'
    | 'unknown caller created once';
  /** A call id the story can follow, when one call shows the problem. */
  callId?: number;
  /** The caller's number, for callback promises. */
  number?: string;
  detail: string;
  /**
   * Can never heal by waiting (a duplicate stays a duplicate); a run stops converging at once. Other
   * broken promises may still be on their way to being kept (a log not written yet).
   */
  final: boolean;
}

/** How far from the expiry bound a callback's state is not judged (processes are not instant). */
export const EXPIRY_SLACK_MS = 15_000;

const HUBSPOT = {
  completed: 'COMPLETED',
  noAnswer: 'NO_ANSWER',
  open: 'NOT_STARTED',
  closed: 'COMPLETED',
  expired: 'DEFERRED',
  leftVoicemail: 'b2cf5968-551e-4856-9783-52b3da59a7d0',
} as const;

/** Every broken promise of the day, the most telling first (safety before liveness). */
export function judgeDay(f: DayFacts): BrokenPromise[] {
  const broken = [
    ...warehouseExactlyOnce(f),
    ...crmLogs(f),
    ...callbacks(f),
    ...dials(f),
    ...archive(f),
    ...unknownContacts(f),
  ];
  return [...broken.filter((b) => b.final), ...broken.filter((b) => !b.final)];
}

/** Every record the platform lists is in the warehouse exactly once, and nothing else is. */
function warehouseExactlyOnce(f: DayFacts): BrokenPromise[] {
  const out: BrokenPromise[] = [];
  const streams = ['cdrs', 'recordings', 'sms', 'voicemessages'] as const;
  for (const stream of streams) {
    const stored = f.warehouse[stream];
    const listed = new Set(f.platform[stream]);
    const missing = f.platform[stream].filter((id) => !stored.has(id));
    if (missing.length > 0)
      out.push({
        promise: 'warehouse exactly once',
        detail: `${stream}: ${missing.length} of ${listed.size} not in the warehouse (e.g. ${missing.slice(0, 5).join(', ')})`,
        final: false,
        ...callOfRecord(f, stream, missing[0]!),
      });
    for (const [id, n] of stored) {
      if (n > 1 || !listed.has(id))
        out.push({
          promise: 'warehouse exactly once',
          detail: `${stream} ${id}: ${n} row(s), ${listed.has(id) ? 'listed' : 'not listed'} by the platform`,
          final: true,
          ...callOfRecord(f, stream, id),
        });
    }
  }
  return out;
}

function callOfRecord(f: DayFacts, stream: string, id: number): { callId?: number } {
  const call =
    stream === 'cdrs'
      ? f.ledger.calls.find((c) => c.cdr_id === id)
      : stream === 'recordings'
        ? f.ledger.calls.find((c) => c.recording_id === id)
        : undefined;
  return call ? { callId: call.call_id } : {};
}

const callIdOfKey = (account: string, key: string): number | null => {
  const m = /^(.+):(\d+)$/.exec(key);
  return m && m[1] === account ? Number(m[2]) : null;
};

/**
 * Exactly one CRM log per call the day placed (none for calls that do not exist), associated with
 * the caller's contact, with the call's final outcome, its recording link and transcript.
 */
function crmLogs(f: DayFacts): BrokenPromise[] {
  const out: BrokenPromise[] = [];
  const byCall = new Map<number, DayFacts['crm']['calls']>();
  const placed = new Map(f.ledger.calls.map((c) => [c.call_id, c]));
  for (const log of f.crm.calls) {
    const id = callIdOfKey(f.account, log.key);
    if (id === null || !placed.has(id)) {
      out.push({
        promise: 'one CRM log per call',
        detail: `a log for no call of the day (${log.key})`,
        ...(id !== null ? { callId: id } : {}),
        final: true,
      });
      continue;
    }
    byCall.set(id, [...(byCall.get(id) ?? []), log]);
  }
  const contactsByPhone = new Map<string, string[]>();
  for (const c of f.crm.contacts) {
    if (c.phone) contactsByPhone.set(c.phone, [...(contactsByPhone.get(c.phone) ?? []), c.id]);
  }
  for (const call of f.ledger.calls) {
    if (call.pending) continue;
    const logs = byCall.get(call.call_id) ?? [];
    if (logs.length !== 1) {
      out.push({
        promise: 'one CRM log per call',
        callId: call.call_id,
        detail: `${logs.length} logs for call ${call.call_id} (${call.scenario})`,
        final: logs.length > 1,
      });
      continue;
    }
    const log = logs[0]!;
    const outcome = outcomeProblem(call, log);
    if (outcome)
      out.push({ promise: 'log has the final outcome', callId: call.call_id, detail: outcome, final: false });
    const expected = call.external ? (contactsByPhone.get(call.external) ?? []) : [];
    const wrong =
      expected.length === 0
        ? log.contactIds.length > 0 && f.settings.createUnknownContacts === false
          ? `associated with ${log.contactIds.join(', ')} though no contact has the number`
          : null
        : log.contactIds.length !== 1 || !expected.includes(log.contactIds[0]!)
          ? `associated with [${log.contactIds.join(', ')}], the number's contact is ${expected.join(' or ')}`
          : null;
    if (wrong)
      out.push({ promise: 'log on the right contact', callId: call.call_id, detail: wrong, final: false });
    if (call.recording_id !== null) {
      const missing = [
        !log.recordingUrl ? 'recording link' : null,
        f.platform.transcribed.has(call.recording_id) && !log.body.includes('Transcript (excerpt)')
          ? 'transcript'
          : null,
      ].filter((x): x is string => x !== null);
      if (missing.length > 0)
        out.push({
          promise: 'log has the recording and transcript',
          callId: call.call_id,
          detail: `log of call ${call.call_id} lacks its ${missing.join(' and ')}`,
          final: false,
        });
    }
  }
  return out;
}

/** What is wrong with a log's outcome for what really happened, or null. */
function outcomeProblem(call: LedgerCall, log: DayFacts['crm']['calls'][number]): string | null {
  const what = `call ${call.call_id} (${call.scenario}, ${call.connected ? 'connected' : 'not connected'}${call.voicemail ? ', voicemail' : ''})`;
  if (call.voicemail) {
    return log.disposition === HUBSPOT.leftVoicemail
      ? null
      : `${what} logged with outcome ${log.disposition}`;
  }
  if (call.connected) return log.status === HUBSPOT.completed ? null : `${what} logged as ${log.status}`;
  if (log.status === HUBSPOT.completed) return `${what} logged as COMPLETED`;
  if (call.direction === 'in' && log.status !== HUBSPOT.noAnswer) return `${what} logged as ${log.status}`;
  return null;
}

/** A call of a caller's history: who reached whom, in the order the calls started. */
interface Touch {
  callId: number;
  start: number;
  end: number;
  kind: 'missed' | 'reached';
}

const laterThan = (a: Touch, b: Touch): boolean =>
  a.start > b.start || (a.start === b.start && a.callId > b.callId);

/** Each caller's misses and reaches, ordered. */
function touchesByNumber(calls: readonly LedgerCall[]): Map<string, Touch[]> {
  const out = new Map<string, Touch[]>();
  for (const c of calls) {
    if (!c.external || c.pending) continue;
    const kind = c.connected ? 'reached' : c.direction === 'in' ? 'missed' : null;
    if (!kind) continue;
    const list = out.get(c.external) ?? [];
    list.push({ callId: c.call_id, start: c.start, end: c.end, kind });
    out.set(c.external, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.start - b.start || a.callId - b.callId);
  return out;
}

interface ParsedTask {
  key: string;
  number: string;
  status: string;
  calls: number[];
  reachedBy: number | null;
}

function parseTask(t: DayFacts['crm']['tasks'][number]): ParsedTask | null {
  const m = /^[^:]+:callback:(.+):\d+$/.exec(t.key);
  if (!m) return null;
  const calls = [...t.body.matchAll(/\(call (\d+)[,)]/g)].map((x) => Number(x[1]));
  const reached = /Reached by call (\d+)/.exec(t.body);
  return {
    key: t.key,
    number: m[1]!,
    status: t.status,
    calls,
    reachedBy: reached ? Number(reached[1]) : null,
  };
}

/**
 * A callback is open for a caller exactly when their latest call was missed and nothing later
 * reached them; closed by the call that reached them; expired (not closed) once the policy gave up;
 * and no missed call is in two callbacks.
 */
function callbacks(f: DayFacts): BrokenPromise[] {
  const out: BrokenPromise[] = [];
  const tasks = f.crm.tasks.map(parseTask).filter((t): t is ParsedTask => t !== null);
  const touches = touchesByNumber(f.ledger.calls);
  const tasksOf = new Map<string, ParsedTask[]>();
  const inTasks = new Map<number, number>();
  for (const t of tasks) {
    tasksOf.set(t.number, [...(tasksOf.get(t.number) ?? []), t]);
    for (const id of t.calls) inTasks.set(id, (inTasks.get(id) ?? 0) + 1);
  }
  for (const [id, n] of inTasks) {
    if (n > 1)
      out.push({
        promise: 'callback state',
        callId: id,
        detail: `missed call ${id} is in ${n} callback tasks`,
        final: true,
      });
  }
  for (const [number, list] of tasksOf) {
    const open = list.filter((t) => t.status === HUBSPOT.open);
    if (open.length > 1)
      out.push({
        promise: 'callback state',
        number,
        detail: `${open.length} open callbacks for one caller`,
        final: true,
      });
    const history = touches.get(number) ?? [];
    for (const t of list.filter((x) => x.status === HUBSPOT.closed)) {
      const reach = history.find((h) => h.callId === t.reachedBy && h.kind === 'reached');
      const misses = history.filter((h) => t.calls.includes(h.callId));
      const latestMiss = misses.at(-1);
      if (!reach || (latestMiss && !laterThan(reach, latestMiss)))
        out.push({
          promise: 'callback state',
          number,
          ...(latestMiss ? { callId: latestMiss.callId } : {}),
          detail: `callback ${t.key} closed by ${t.reachedBy === null ? 'no named call' : `call ${t.reachedBy}`}, which did not reach the caller after the miss`,
          final: true,
        });
    }
  }
  for (const [number, history] of touches) {
    const last = history.at(-1);
    const list = tasksOf.get(number) ?? [];
    const notDone = list.filter((t) => t.status !== HUBSPOT.closed);
    if (!last || last.kind === 'reached') {
      const stillOpen = list.filter((t) => t.status === HUBSPOT.open);
      if (last && stillOpen.length > 0)
        out.push({
          promise: 'callback state',
          number,
          callId: last.callId,
          detail: `callback ${stillOpen[0]!.key} still open though call ${last.callId} reached the caller after every miss`,
          final: false,
        });
      continue;
    }
    // The latest call was missed and nothing later reached the caller: one callback holds it, open
    // until the policy gives up, expired after.
    const holding = notDone.filter((t) => t.calls.includes(last.callId));
    if (holding.length !== 1) {
      out.push({
        promise: 'callback state',
        number,
        callId: last.callId,
        detail: `latest call ${last.callId} was missed and nothing reached the caller later, but ${holding.length} callbacks that are not closed hold it (tasks: ${list.map((t) => `${t.key} ${t.status}`).join('; ') || 'none'})`,
        final: false,
      });
      continue;
    }
    const since = f.now - realTimeOf(f.clock, last.end);
    const want =
      since > f.settings.expireAfterMs + EXPIRY_SLACK_MS
        ? HUBSPOT.expired
        : since < f.settings.expireAfterMs - EXPIRY_SLACK_MS
          ? HUBSPOT.open
          : null;
    const got = holding[0]!.status;
    if (want !== null && got !== want)
      out.push({
        promise: 'callback state',
        number,
        callId: last.callId,
        detail: `callback ${holding[0]!.key} is ${got}, should be ${want} ${Math.round(since / 1000)} s after the miss (expireAfter ${f.settings.expireAfterMs / 1000} s)`,
        final: false,
      });
  }
  return out;
}

/** The platform dialled each callback at most `maxDialAttempts` times (never without auto-dial). */
function dials(f: DayFacts): BrokenPromise[] {
  const out: BrokenPromise[] = [];
  const dialsTo = new Map<string, LedgerCall[]>();
  for (const c of f.ledger.calls) {
    if (c.from_api && c.external) dialsTo.set(c.external, [...(dialsTo.get(c.external) ?? []), c]);
  }
  const tasksTo = new Map<string, number>();
  for (const t of f.crm.tasks.map(parseTask)) if (t) tasksTo.set(t.number, (tasksTo.get(t.number) ?? 0) + 1);
  for (const [number, list] of dialsTo) {
    const allowed = f.settings.autoDial ? (tasksTo.get(number) ?? 0) * f.settings.maxDialAttempts : 0;
    if (list.length > allowed)
      out.push({
        promise: 'dialled at most once',
        number,
        callId: list[0]!.call_id,
        detail: `${list.length} calls placed to the caller through the API for ${tasksTo.get(number) ?? 0} callback(s) (calls ${list.map((c) => c.call_id).join(', ')})`,
        final: true,
      });
  }
  return out;
}

/**
 * Every recording of the day is archived once, with the checksum of what the platform serves, or is
 * listed as lost with its reason when the platform never had its audio.
 */
function archive(f: DayFacts): BrokenPromise[] {
  const out: BrokenPromise[] = [];
  for (const call of f.ledger.calls) {
    const id = call.recording_id;
    if (id === null || call.pending) continue;
    const row = f.warehouse.archive.get(id);
    const files = f.archiveFiles.get(id) ?? 0;
    const fail = (detail: string, final = false) =>
      out.push({
        promise: 'recording archived or lost',
        callId: call.call_id,
        detail: `recording ${id}: ${detail}`,
        final,
      });
    if (files > 1) fail(`${files} files in the archive`, true);
    if (!row) continue; // the warehouse promise reports it
    if (call.audio_lost) {
      if (row.audioUri) fail('archived, though the platform never had its audio', true);
      else if (!row.lostReason) fail('not listed as lost, though the platform never had its audio');
      continue;
    }
    if (row.lostReason) fail(`listed as lost (${row.lostReason}), though its audio came`, true);
    else if (!row.audioUri) fail('not archived');
    else {
      const served = f.platformAudioMd5.get(id);
      if (!row.audioMd5 || (served && row.audioMd5 !== served))
        fail(`checksum ${row.audioMd5} is not the audio's ${served}`, true);
    }
  }
  return out;
}

/** A caller the CRM did not know becomes one contact (with createUnknownContacts), never two. */
function unknownContacts(f: DayFacts): BrokenPromise[] {
  const out: BrokenPromise[] = [];
  const byPhone = new Map<string, number>();
  for (const c of f.crm.contacts) if (c.phone) byPhone.set(c.phone, (byPhone.get(c.phone) ?? 0) + 1);
  const numbers = new Set(f.ledger.calls.filter((c) => !c.pending && c.external).map((c) => c.external!));
  for (const number of numbers) {
    const n = byPhone.get(number) ?? 0;
    const known = f.crmKnownBefore.has(number);
    if (n > 1)
      out.push({
        promise: 'unknown caller created once',
        number,
        detail: `${n} contacts have the number`,
        final: true,
      });
    else if (!known && f.settings.createUnknownContacts && n === 0)
      out.push({
        promise: 'unknown caller created once',
        number,
        detail: 'no contact was created for an unknown caller',
        final: false,
      });
    else if (!known && !f.settings.createUnknownContacts && n > 0)
      out.push({
        promise: 'unknown caller created once',
        number,
        detail: 'a contact was created though createUnknownContacts is off',
        final: true,
      });
  }
  return out;
}
