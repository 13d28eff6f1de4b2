import type { Row } from '../store/types';
import { formatEpoch } from './calendar';
import type { CallContext, CallOptions, CallSink } from './call-context';
import {
  callMeBackCdrRow,
  chargeOf,
  monitorRow,
  noteRow,
  trackingCdrRow,
  voicemessageRow,
  webcallRow,
} from './call-links';
import { callParts, SCENARIOS, type CdrParts, type Scenario } from './call-parts';
import type { Rng } from './prng';
import type { IdAllocator } from './profiles';
import type { TranscriptEntry } from './transcripts';

/** Labels of a CDR nobody labelled: one frozen array shared by every such row. */
const NO_LABELS: readonly string[] = Object.freeze([]);

export type { CallContext, CallOptions, CallSink } from './call-context';

const SERVERS = [3, 4, 7, 9];

/** Generates consistent calls: a CDR plus its recording, voice message, note and module rows. */
export class CallGenerator {
  constructor(
    private readonly rng: Rng,
    private readonly ids: IdAllocator,
  ) {}

  /** One call starting at `start` (epoch seconds); rows go to `sink`, the CDR first. Returns the CDR. */
  call(ctx: CallContext, start: number, sink: CallSink, opts: CallOptions = {}): Row {
    const rng = this.rng;
    const scenario = rng.weighted(SCENARIOS);
    const p = callParts(rng, ctx, scenario);
    if (opts.maxDuration !== undefined && p.billsec > 0 && p.ring + p.billsec > opts.maxDuration) {
      p.billsec = Math.max(1, opts.maxDuration - p.ring);
    }
    const duration = p.ring + p.billsec;
    const begin = opts.endsAt !== undefined ? opts.endsAt - duration : start;
    const end = begin + duration;
    const calldate = formatEpoch(begin);
    const liveId = this.ids.take('live');
    if (rng.chance(0.3)) this.ids.take('live'); // transfers and internal legs use live ids too
    const charge = chargeOf(p.rate, p.billsec);
    // One literal, always the same key order: a million CDRs share one hidden class.
    const cdr: Row = {
      id: this.ids.take('cdrs'),
      duration,
      live_id: liveId,
      parent_live_id: null,
      user_id: p.user.id,
      sip_endpoint_id: p.user.sipEndpointId,
      server_id: rng.pick(SERVERS),
      type: p.type,
      calldate,
      clid: p.src.clid,
      src_id: p.src.id,
      src_name: p.src.name,
      src: p.src.number,
      src_ua: p.src.ua,
      src_codec: p.src.codec,
      dst_id: p.dst.id,
      dst: p.dst.number,
      dst_name: p.dst.name,
      dst_ua: p.dst.ua,
      dst_codec: p.dst.codec,
      billsec: p.billsec,
      disposition: p.disposition,
      destination: p.destination,
      context: p.context,
      rate: p.rate,
      charge,
      t_cause: p.tCause,
      info: p.info,
      call_id: liveId,
      is_root: true,
      root_live_id: liveId,
      // Beyond the spec: the official CLI and the Data Studio connector read these.
      labels: NO_LABELS,
      metadata: null,
      nb_notes: 0,
    };
    sink('cdrs', cdr);
    this.tally(ctx, p, calldate, charge);

    if (this.recorded(ctx, scenario, p))
      sink('monitors', monitorRow(this.ids, rng, cdr, p, end, this.ai(ctx, p, opts)));
    if (p.disposition === 'VM') {
      const pool = ctx.voicemails[ctx.dir.users.indexOf(p.user)] ?? [];
      sink(
        'voicemessages',
        voicemessageRow(this.ids, rng, cdr, p, end, pool.length > 0 ? rng.pick(pool) : null),
      );
    }
    if (p.disposition === 'CONNECTED' && rng.chance(0.015)) {
      cdr.nb_notes = 1; // seeded rows are this object; a store's sink counts notes itself
      sink('cdrnotes', noteRow(this.ids, rng, cdr, p, end));
    }
    if (scenario === 'webcall') sink('webcalls', webcallRow(this.ids, cdr, p));
    if (scenario === 'cmb') sink('callmeback_cdrs', callMeBackCdrRow(rng, ctx, cdr));
    if (p.info.startsWith('Call tracking')) sink('calltracking_cdrs', trackingCdrRow(ctx, cdr, p));
    return cdr;
  }

  /** Month totals (statements) and the contact's latest call. */
  private tally(ctx: CallContext, p: CdrParts, calldate: string, charge: number): void {
    const month = calldate.slice(0, 7);
    let m = ctx.months.get(month);
    if (m === undefined) {
      m = { charge: 0, calls: 0 };
      ctx.months.set(month, m);
    }
    m.charge += charge;
    m.calls += 1;
    const contactIndex = p.src.contactIndex >= 0 ? p.src.contactIndex : p.dst.contactIndex;
    if (contactIndex >= 0) ctx.contactLastCall[contactIndex] = calldate;
  }

  /** Whether the user's (or the queue's) recording setting covers this call. */
  private recorded(ctx: CallContext, scenario: Scenario, p: CdrParts): boolean {
    if (p.disposition !== 'CONNECTED' || scenario === 'test') return false;
    if (scenario === 'in_queue' && ctx.dir.queues.some((q) => q.monitor && String(q.id) === p.dst.id))
      return true;
    const m = p.user.monitor;
    if (scenario === 'internal') return m === 'A' && this.rng.chance(0.3);
    return m === 'A' || (m === 'I' && p.destination === 'in') || (m === 'O' && p.destination !== 'in');
  }

  /** The AI results of a recording, when the user has transcription on (calls made now may get them later). */
  private ai(ctx: CallContext, p: CdrParts, opts: CallOptions): TranscriptEntry | undefined {
    const pool = ctx.transcripts[ctx.dir.users.indexOf(p.user)] ?? [];
    if (!p.user.transcribe || pool.length === 0) return undefined;
    if (opts.transcriptLater === true && this.rng.chance(0.6)) return undefined;
    return this.rng.pick(pool);
  }
}
