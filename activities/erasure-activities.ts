// Activities of the erasure workflow. The workflow passes only the identifier's keyed hash; each
// activity reads the identifier (and what earlier steps found: names, calls) from the short-lived
// erasure_requests row, so no personal data enters the workflow's history. Every step is idempotent:
// a resumed or repeated erasure finds nothing left to change and still succeeds.
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { CountryCode } from 'libphonenumber-js/max';
import {
  addErasureCounts,
  addSuppressions,
  deleteErasureRequest,
  eraseFromTable,
  erasableTables,
  findPersonInTable,
  finishErasure,
  getErasureRequest,
  linkRecords,
  openErasure,
  putErasureRequest,
  saveErasureFindings,
  type PersonCall,
} from '../connectors/postgres';
import type { ErasePersonInput, ErasePersonResult } from '../contracts';
import {
  callHash,
  escapeRegex,
  identifierHash,
  nationalDigitsPattern,
  subjectHashes,
  type ErasureSubject,
} from '../lib/erasure/identity';
import { linkedSubjects } from '../lib/erasure/links';
import { subjectMatcher } from '../lib/erasure/matchers';
import { erasureHashKey } from '../lib/encryption-keys';
import type { ActivityDeps } from './deps';
import { eraseFromBigQuery } from './erasure-bigquery';
import { createErasureExternalActivities, type ErasureContext } from './erasure-external';

interface Findings {
  names?: string[];
  calls?: PersonCall[];
  messages?: string[];
}

export function createErasureActivities(deps: ActivityDeps) {
  const { db, pool } = deps.warehouse;
  // Read once when activities are created (as the callback id key is).
  const key = erasureHashKey(deps.config);
  const country = deps.config.crm.defaultCountry as CountryCode;

  const context = async (subjectHash: string): Promise<ErasureContext> => {
    const row = await getErasureRequest(db, subjectHash);
    if (!row) {
      throw ApplicationFailure.nonRetryable(
        'erasure_requests: no request for this erasure (it finished, or was never stored): run `callsync erase` again',
        'ErasureRequestMissing',
      );
    }
    const found = (row.found ?? {}) as Findings;
    return {
      subject: { kind: row.kind, value: row.subject },
      names: found.names ?? [],
      calls: found.calls ?? [],
      messages: found.messages ?? [],
    };
  };
  const patternOf = (s: ErasureSubject) =>
    s.kind === 'number' ? nationalDigitsPattern(s.value) : escapeRegex(s.value);

  return {
    /**
     * Puts the identifier on the suppression list first (so what arrives while the erasure runs is
     * anonymised as it is written), opens the erasure's record, and names the tables to go through.
     */
    async eraseBegin(
      input: ErasePersonInput & { workflowId: string },
    ): Promise<{ erasureId: string; tables: string[] }> {
      const { subject } = await context(input.subjectHash);
      await addSuppressions(db, subjectHashes(key, subject));
      const erasureId = await openErasure(db, {
        subjectHash: input.subjectHash,
        kind: input.kind,
        workflowId: input.workflowId,
      });
      const tables = (await erasableTables(pool)).map((t) => t.table);
      return { erasureId, tables };
    },

    /** First pass over every table (reads only): the person's names, calls and messages, kept in the request row. */
    async eraseCollect(input: ErasePersonInput): Promise<{ calls: number; names: number; messages: number }> {
      const ctx = await context(input.subjectHash);
      const matcher = subjectMatcher(key, ctx.subject, country);
      const names = new Set(ctx.names);
      const calls = new Map(ctx.calls.map((c) => [`${c[0]}\u0000${c[1]}`, c] as const));
      const messages = new Set(ctx.messages);
      for (const t of await erasableTables(pool)) {
        Context.current().heartbeat(t.table);
        const found = await findPersonInTable(pool, t, patternOf(ctx.subject), matcher);
        for (const n of found.names) names.add(n);
        for (const c of found.calls) calls.set(`${c[0]}\u0000${c[1]}`, c);
        for (const m of found.messages) messages.add(m);
      }
      await saveErasureFindings(db, input.subjectHash, {
        names: [...names],
        calls: [...calls.values()],
        messages: [...messages],
      });
      // Their calls' later records (a recording's transcript arriving, an event redelivered) name no
      // number: the calls themselves go on the suppression list.
      await addSuppressions(
        db,
        [...calls.values()].map(([account, callId]) => ({
          kind: 'call',
          hash: callHash(key, account, callId),
        })),
      );
      return { calls: calls.size, names: names.size, messages: messages.size };
    },

    /**
     * The person's other identifiers (numbers and e-mails on their contacts, numbers cached as their
     * CRM contact), each stored as an erasure request of its own; their hashes go back to the
     * workflow, which erases each of them (docs/privacy.md "Erasure": linked identifiers).
     */
    async eraseLinked(input: ErasePersonInput): Promise<{ subjectHash: string; kind: 'number' | 'email' }[]> {
      const { subject } = await context(input.subjectHash);
      const linked = await linkedSubjects(subject, country, (q) => linkRecords(db, q));
      const out: { subjectHash: string; kind: 'number' | 'email' }[] = [];
      for (const s of linked) {
        const subjectHash = identifierHash(key, s.kind, s.value);
        await putErasureRequest(db, { subjectHash, kind: s.kind, subject: s.value });
        out.push({ subjectHash, kind: s.kind });
      }
      return out;
    },

    /** Second pass over one table: anonymises (or deletes) the person's rows; counts go to the record. */
    async eraseWarehouseTable(
      input: ErasePersonInput & { erasureId: string; table: string },
    ): Promise<Record<string, number>> {
      const ctx = await context(input.subjectHash);
      const t = (await erasableTables(pool)).find((x) => x.table === input.table);
      if (!t) return {};
      const matcher = subjectMatcher(key, ctx.subject, country);
      const counts: Record<string, number> = {};
      const done = await eraseFromTable(pool, t, patternOf(ctx.subject), matcher, ctx);
      if (done.anonymised > 0) counts[`warehouse.${t.table}.anonymised`] = done.anonymised;
      if (done.deleted > 0) counts[`warehouse.${t.table}.deleted`] = done.deleted;
      await addErasureCounts(db, input.erasureId, counts);
      return counts;
    },

    /**
     * Erases the person from every stream table of every account's BigQuery dataset, in BigQuery
     * (rows PostgreSQL no longer holds included); after the warehouse tables, so the names and calls
     * found there are known. Heartbeats per table and page (and, like every activity, while a job
     * runs: activities/index.ts).
     */
    async eraseBigQuery(input: ErasePersonInput & { erasureId: string }): Promise<Record<string, number>> {
      const warehouses = deps.bigquery;
      if (!warehouses) return {};
      const ctx = await context(input.subjectHash);
      const counts = await eraseFromBigQuery(warehouses, input.erasureId, {
        accounts: deps.config.accounts.map((a) => a.name),
        pattern: patternOf(ctx.subject),
        matcher: subjectMatcher(key, ctx.subject, country),
        names: ctx.names,
        calls: ctx.calls,
        progress: (where) => Context.current().heartbeat(where),
      });
      await addErasureCounts(db, input.erasureId, counts);
      return counts;
    },

    /** Adds a linked identifier's erasure counts to this erasure's record, as `linked.<place>`. */
    async eraseLinkedCounts(input: { erasureId: string; counts: Record<string, number> }): Promise<void> {
      const row = await db
        .selectFrom('erasures')
        .select('counts')
        .where('id', '=', input.erasureId)
        .executeTakeFirst();
      const mine = (row?.counts ?? {}) as Record<string, number>;
      const add: Record<string, number> = {};
      for (const [k, v] of Object.entries(input.counts)) add[`linked.${k}`] = (mine[`linked.${k}`] ?? 0) + v;
      await addErasureCounts(db, input.erasureId, add);
    },

    /** Ends the erasure: deletes the request row (the last copy of the identifier) and closes the record. */
    async eraseFinish(input: ErasePersonInput & { erasureId: string }): Promise<ErasePersonResult> {
      await deleteErasureRequest(db, input.subjectHash);
      await finishErasure(db, input.erasureId, { status: 'done' });
      const row = await db
        .selectFrom('erasures')
        .select(['counts', 'removed_files'])
        .where('id', '=', input.erasureId)
        .executeTakeFirst();
      const removed = row?.removed_files ?? [];
      return {
        erasureId: input.erasureId,
        counts: (row?.counts ?? {}) as Record<string, number>,
        ...(removed.length > 0 ? { removed } : {}),
      };
    },

    /** Records a failed erasure (its request stays, so running `callsync erase` again resumes it). */
    async eraseFailed(input: { erasureId: string; error: string }): Promise<void> {
      await finishErasure(db, input.erasureId, { status: 'failed', error: input.error });
    },

    ...createErasureExternalActivities(deps, context),
  };
}
