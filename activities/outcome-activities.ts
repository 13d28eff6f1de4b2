// CRM outcomes back on the CDR (docs/crm.md "Outcomes back on the CDR"). A pass per account reads the call
// logs whose outcome changed in the CRM since a cursor kept in PostgreSQL, and gives each call's CDR
// the outcome's call label and a note, through PATCH /cdrs in batches. Exactly once per (call,
// outcome): cdr_outcomes holds the outcome last seen per call, and a write is recorded as pending
// before it is sent, so a retry first looks for its note on the CDR instead of adding it again.
// callsync's own disposition (what it writes when it logs the call) is no agent's outcome: not written.
import type { CountryCode } from 'libphonenumber-js';
import { summarizeCdr } from '../connectors/crm/call-log';
import {
  callIdOfKey,
  cdrLabelNames,
  labelsAfterOutcome,
  outcomeLabel,
  outcomeNote,
  type CrmOutcome,
  type CrmOutcomeSource,
} from '../connectors/crm/outcomes';
import { destinationIdOf } from '../connectors/crm/crm-connector';
import type { PlatformClient } from '../connectors/platform';
import {
  getCdrOutcomes,
  getCheckpoint,
  pendingCdrOutcomes,
  saveCdrOutcomes,
  setCdrOutcomeState,
  setCheckpoint,
  type CdrOutcomeInput,
  type CdrOutcomeRow,
} from '../connectors/postgres';
import type { CrmOutcomesResult } from '../contracts';
import { outcomesOf } from '../config/account-settings';
import { findCallCdr } from './call-cdr';
import type { ActivityDeps } from './deps';
import { CallLabelBook, patchCdrs, type CdrWrite } from './outcome-writes';

/** The checkpoint stream of the pass (its scope is the CRM destination's identity, destinationIdOf). */
export const OUTCOMES_STREAM = 'crm_outcomes';

interface Planned {
  row: CdrOutcomeInput;
  write: CdrWrite;
}

export function createOutcomeActivities(deps: ActivityDeps) {
  const db = deps.warehouse.db;
  const country = deps.config.crm.defaultCountry as CountryCode;

  /** Sends planned writes (recorded as pending first) and records how each ended. */
  async function write(
    platform: PlatformClient,
    destination: string,
    labels: CallLabelBook,
    planned: readonly Planned[],
    result: CrmOutcomesResult,
    batchSize: number,
  ): Promise<void> {
    if (planned.length === 0) return;
    await labels.ensure(planned.map((p) => p.row.label!));
    await saveCdrOutcomes(
      db,
      planned.map((p) => p.row),
    );
    const refused = await patchCdrs(
      platform,
      planned.map((p) => p.write),
      batchSize,
    );
    const done = planned.filter((p) => !refused.has(p.write.id));
    await setCdrOutcomeState(
      db,
      destination,
      done.map((p) => p.row.call_key),
      'applied',
    );
    for (const p of planned.filter((x) => refused.has(x.write.id))) {
      await setCdrOutcomeState(db, destination, [p.row.call_key], 'refused', refused.get(p.write.id));
      deps.logger.warn(
        { account: p.row.account, call: p.row.call_key, cdr: p.write.id, reason: refused.get(p.write.id) },
        'outcome refused by the platform',
      );
    }
    result.written += done.length;
    result.refused += refused.size;
  }

  /** The write of a pending row, or null when its note is already on the CDR (the write got there). */
  async function resumeWrite(platform: PlatformClient, row: CdrOutcomeRow): Promise<CdrWrite | null> {
    if (row.cdr_id === null || row.label === null || row.note === null) return null;
    for await (const n of platform.history.cdrs.notes(row.cdr_id)) if (n.note === row.note) return null;
    const cdr = await platform.history.cdrs.get(row.cdr_id);
    const labels = labelsAfterOutcome(cdrLabelNames(cdr.labels), row.previous_label, row.label);
    return { id: row.cdr_id, labels, note: row.note };
  }

  /** What to do with one changed outcome: an echo row, a refusal row, or a planned write. */
  async function plan(
    platform: PlatformClient,
    source: CrmOutcomeSource,
    account: string,
    destination: string,
    o: CrmOutcome,
    callId: number,
    previous: CdrOutcomeRow | undefined,
  ): Promise<{ echo: CdrOutcomeInput } | { refused: CdrOutcomeInput } | { planned: Planned }> {
    const base = {
      destination,
      call_key: o.key,
      account,
      crm_id: o.crmId,
      value: o.value,
      crm_changed_at: o.modifiedAt,
      previous_label: previous?.label ?? null,
    };
    const cdr = await findCallCdr(platform, callId);
    if (!cdr) {
      const row = { ...base, cdr_id: null, label: previous?.label ?? null, note: null };
      return { refused: { ...row, state: 'refused', reason: `no CDR for call ${callId}` } };
    }
    if (source.ownValue(summarizeCdr(cdr, country).status) === o.value) {
      // The label of an earlier agent outcome stays on the CDR (and is what a next one replaces).
      const row = { ...base, cdr_id: cdr.id, label: previous?.label ?? null, note: null };
      return { echo: { ...row, state: 'echo', reason: null } };
    }
    // The account's own map and prefix: the outcome values are its CRM's.
    const label = outcomeLabel(o, outcomesOf(deps.config, account));
    const note = outcomeNote(o, source.displayName);
    const labels = labelsAfterOutcome(cdrLabelNames(cdr.labels), previous?.label ?? null, label);
    return {
      planned: {
        row: { ...base, cdr_id: cdr.id, label, note, state: 'pending', reason: null },
        write: { id: cdr.id, labels, note },
      },
    };
  }

  return {
    /** One pass of an account: pending writes first, then the outcomes changed since the cursor. */
    async applyCrmOutcomes(input: { account: string }): Promise<CrmOutcomesResult> {
      const { account } = input;
      const result: CrmOutcomesResult = {
        skipped: null,
        changed: 0,
        written: 0,
        echoes: 0,
        refused: 0,
        resumed: 0,
        labelsCreated: 0,
      };
      const { enabled, batchSize } = outcomesOf(deps.config, account);
      // A schedule made before the account's outcomes were switched off writes nothing.
      if (!enabled) return { ...result, skipped: `outcomes.enabled is false for ${account}` };
      const crm = deps.crm(account);
      const source = crm.outcomes?.();
      if (!source) return { ...result, skipped: `the ${crm.name} destination keeps no call outcomes` };
      // The portal's or org's own: its call-log ids and its cursor mean nothing in another one.
      const destination = destinationIdOf(crm);
      const platform = deps.platform(account);
      const labels = new CallLabelBook(platform);

      const resumed: Planned[] = [];
      for (const row of await pendingCdrOutcomes(db, account, destination)) {
        const w = await resumeWrite(platform, row);
        result.resumed++;
        if (w) resumed.push({ row, write: w });
        else await setCdrOutcomeState(db, destination, [row.call_key], 'applied');
      }
      await write(platform, destination, labels, resumed, result, batchSize);

      const key = { account, stream: OUTCOMES_STREAM, scope: destination };
      const since = (await getCheckpoint(db, key))?.cursor ?? null;
      for await (const page of source.changedSince(since)) {
        const latest = new Map<string, { o: CrmOutcome; callId: number }>();
        for (const o of page) {
          const callId = callIdOfKey(o.key, account);
          if (callId !== null) latest.set(o.key, { o, callId });
        }
        const known = await getCdrOutcomes(db, destination, [...latest.keys()]);
        const rows: CdrOutcomeInput[] = [];
        const planned: Planned[] = [];
        for (const { o, callId } of latest.values()) {
          const previous = known.get(o.key);
          // Seen before with this value: written, pending (resumed above), echoed or refused already.
          if (previous?.value === o.value) continue;
          result.changed++;
          const p = await plan(platform, source, account, destination, o, callId, previous);
          if ('echo' in p) {
            rows.push(p.echo);
            result.echoes++;
          } else if ('refused' in p) {
            rows.push(p.refused);
            result.refused++;
          } else planned.push(p.planned);
        }
        await saveCdrOutcomes(db, rows);
        await write(platform, destination, labels, planned, result, batchSize);
        const last = page.reduce<string | null>(
          (m, o) => (m === null || o.modifiedAt > m ? o.modifiedAt : m),
          null,
        );
        // At or after `last` next time: outcomes of that same instant are read again and skipped.
        if (last !== null && (since === null || last > since)) await setCheckpoint(db, key, last);
      }
      result.labelsCreated = labels.created;
      return result;
    },
  };
}
