// The warehouse side of erasing one person, table by table and generic: every table's text and JSON
// columns (read from information_schema, so a table added later is covered without a change here)
// are searched for the person's number or e-mail, and the rows found, with the rows of their calls,
// are anonymised in place by lib/erasure/scrub.ts. Rows are changed where they are (by ctid, inside
// one transaction per table), so a table needs no primary key to be erasable.
import type pg from 'pg';
import { ERASED_TEXT, scrubRecord } from '../../../lib/erasure/scrub';
import type { IdentityMatcher } from '../../../lib/erasure/matchers';
import { quoteIdent } from '../copy-text';

/** One erasable table: its text and JSON columns. */
export interface ErasableTable {
  table: string;
  columns: { name: string; json: boolean; nullable: boolean; type: string }[];
  hasAccount: boolean;
}

/** A call of the person: its account and call id. */
export type PersonCall = [account: string, callId: number];

// The erasure's own tables are not the person's data (the request row is deleted at the end), and
// staging tables are session copies of stream tables.
const SKIPPED = new Set([
  'erasure_requests',
  'erasures',
  'erasure_suppressions',
  'kysely_migration',
  'kysely_migration_lock',
]);

/**
 * Where a table names a call: a call id column, or a key `<account>:<call id>`. Rows of the person's
 * calls are theirs even where no number appears (a recording's transcript, a call's events).
 */
const CALL_LINKS: Readonly<Record<string, (calls: string) => string>> = {
  cdrs: (c) => `(account, live_id) IN (${c})`,
  recordings: (c) => `(account, live_id) IN (${c})`,
  voicemessages: (c) => `(account, live_id) IN (${c})`,
  call_events: (c) => `(account, call_id) IN (${c})`,
  webhook_inbox: (c) => `(account, call_id) IN (${c})`,
  callback_dials: (c) => `(account, call_id) IN (${c})`,
  builtin_call_logs: (c) => `key IN (SELECT a || ':' || i FROM (${c}) AS p(a, i))`,
  crm_objects: (c) => `kind = 'call_log' AND source_key IN (SELECT a || ':' || i FROM (${c}) AS p(a, i))`,
};

/** Tables of messages callsync logs in the CRM, and the channel in their key `<account>:<channel>:<id>`. */
const MESSAGE_CHANNELS: Readonly<Record<string, 'sms' | 'voicemail'>> = {
  sms: 'sms',
  voicemessages: 'voicemail',
};

/** Columns of a row of the person that name one of their calls (read during the first pass). */
const CALL_ID_COLUMNS: Readonly<Record<string, string>> = {
  cdrs: 'live_id',
  recordings: 'live_id',
  voicemessages: 'live_id',
  call_events: 'call_id',
  webhook_inbox: 'call_id',
  callback_dials: 'call_id',
};

/**
 * Done with the rows of one table, in the same transaction: deliveries of their calls still waiting
 * for the relay are marked done, so no workflow is signalled (and started again) with them.
 */
const AFTER: Readonly<
  Record<string, (client: pg.PoolClient, calls: readonly PersonCall[]) => Promise<void>>
> = {
  webhook_inbox: async (client, calls) => {
    if (calls.length === 0) return;
    await client.query(
      `UPDATE webhook_inbox SET status = 'done', done_at = now(), last_error = 'suppressed: erased person'
        WHERE status <> 'done'
          AND (account, call_id) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`,
      [calls.map((c) => c[0]), calls.map((c) => c[1])],
    );
  },
};

/** Tables whose matching rows are deleted rather than anonymised: refused bodies kept for inspection. */
const DELETED_TABLES = new Set(['webhook_rejected']);

/** Every base table of the current schema with text or JSON columns, in name order. */
export async function erasableTables(pool: pg.Pool): Promise<ErasableTable[]> {
  const { rows } = await pool.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
  }>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        AND c.is_generated = 'NEVER'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, ErasableTable>();
  for (const r of rows) {
    if (SKIPPED.has(r.table_name) || r.table_name.startsWith('_stage_')) continue;
    const t = tables.get(r.table_name) ?? { table: r.table_name, columns: [], hasAccount: false };
    tables.set(r.table_name, t);
    if (r.column_name === 'account') t.hasAccount = true;
    if (['text', 'character varying', 'json', 'jsonb'].includes(r.data_type)) {
      t.columns.push({
        name: r.column_name,
        json: r.data_type.startsWith('json'),
        nullable: r.is_nullable === 'YES',
        type: r.data_type,
      });
    }
  }
  return [...tables.values()].filter((t) => t.columns.length > 0);
}

/** `VALUES ('acme', 123), …` of the person's calls, or null when there are none. */
function callValues(calls: readonly PersonCall[], params: unknown[]): string | null {
  if (calls.length === 0) return null;
  params.push(
    calls.map((c) => c[0]),
    calls.map((c) => c[1]),
  );
  return `SELECT * FROM unnest($${params.length - 1}::text[], $${params.length}::bigint[])`;
}

interface FoundRow {
  ctid: string;
  values: Record<string, unknown>;
  linked: boolean;
  account: string | null;
  callId: number | null;
  /** The row's id in a table of MESSAGE_CHANNELS. */
  messageId: number | null;
}

/** Rows of `t` whose text holds the pattern (case-insensitive), or that belong to one of the calls. */
async function findRows(
  client: pg.PoolClient,
  t: ErasableTable,
  pattern: string,
  calls: readonly PersonCall[],
  lock: boolean,
): Promise<FoundRow[]> {
  const params: unknown[] = [pattern];
  const textMatch = t.columns.map((c) => `${quoteIdent(c.name)}${c.json ? '::text' : ''} ~* $1`).join(' OR ');
  const link = CALL_LINKS[t.table];
  const values = link ? callValues(calls, params) : null;
  const linked = link && values ? link(values) : 'false';
  const idColumn = CALL_ID_COLUMNS[t.table];
  const select = [
    'ctid::text AS "_ctid"',
    `(${linked}) AS "_linked"`,
    t.hasAccount ? 'account AS "_account"' : 'NULL::text AS "_account"',
    idColumn ? `${quoteIdent(idColumn)}::bigint AS "_call_id"` : 'NULL::bigint AS "_call_id"',
    MESSAGE_CHANNELS[t.table] ? 'id::bigint AS "_message_id"' : 'NULL::bigint AS "_message_id"',
    ...t.columns.map((c) => quoteIdent(c.name)),
  ].join(', ');
  const { rows } = await client.query<Record<string, unknown>>(
    `SELECT ${select} FROM ${quoteIdent(t.table)} WHERE (${textMatch}) OR (${linked})${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows.map((r) => {
    const values: Record<string, unknown> = {};
    for (const c of t.columns) values[c.name] = r[c.name];
    return {
      ctid: r._ctid as string,
      values,
      linked: r._linked === true,
      account: (r._account as string | null) ?? null,
      callId: r._call_id === null || r._call_id === undefined ? null : Number(r._call_id),
      messageId: r._message_id === null || r._message_id === undefined ? null : Number(r._message_id),
    };
  });
}

/**
 * What the first pass learnt from one table: names next to the person's identifiers, their calls,
 * and the CRM keys of their messages (`<account>:sms:<id>`, `<account>:voicemail:<id>`).
 */
export interface TableFindings {
  names: string[];
  calls: PersonCall[];
  messages: string[];
}

/** First pass (reads only): the names and calls of the person found in one table. */
export async function findPersonInTable(
  pool: pg.Pool,
  t: ErasableTable,
  pattern: string,
  matcher: IdentityMatcher,
): Promise<TableFindings> {
  const client = await pool.connect();
  try {
    const rows = await findRows(client, t, pattern, [], false);
    const names = new Set<string>();
    const calls: PersonCall[] = [];
    const messages: string[] = [];
    const channel = MESSAGE_CHANNELS[t.table];
    for (const row of rows) {
      const r = scrubRecord(row.values, { matcher });
      if (!r.person) continue;
      for (const n of r.names) names.add(n);
      if (row.account !== null && row.callId !== null) calls.push([row.account, row.callId]);
      if (channel && row.account !== null && row.messageId !== null)
        messages.push(`${row.account}:${channel}:${row.messageId}`);
    }
    return { names: [...names], calls, messages };
  } finally {
    client.release();
  }
}

/** Rows of one table that still name the person (`callsync erase --verify`; reads only). */
export async function countPersonInTable(
  pool: pg.Pool,
  t: ErasableTable,
  pattern: string,
  matcher: IdentityMatcher,
): Promise<number> {
  const client = await pool.connect();
  try {
    const rows = await findRows(client, t, pattern, [], false);
    return rows.filter((row) => {
      const r = scrubRecord(row.values, { matcher });
      return r.person && r.changed;
    }).length;
  } finally {
    client.release();
  }
}

/** Rows changed in one table: anonymised in place, or deleted. */
export interface TableErasure {
  anonymised: number;
  deleted: number;
}

/** Second pass: anonymises (or deletes) the person's rows of one table, in one transaction. */
export async function eraseFromTable(
  pool: pg.Pool,
  t: ErasableTable,
  pattern: string,
  matcher: IdentityMatcher,
  found: { names: readonly string[]; calls: readonly PersonCall[] },
): Promise<TableErasure> {
  const client = await pool.connect();
  const result: TableErasure = { anonymised: 0, deleted: 0 };
  try {
    await client.query('BEGIN');
    const rows = await findRows(client, t, pattern, found.calls, true);
    for (const row of rows) {
      const r = scrubRecord(row.values, { matcher, names: found.names, person: row.linked });
      if (!r.person || !r.changed) continue;
      if (DELETED_TABLES.has(t.table)) {
        await client.query(`DELETE FROM ${quoteIdent(t.table)} WHERE ctid = $1::tid`, [row.ctid]);
        result.deleted++;
        continue;
      }
      const after = r.value as Record<string, unknown>;
      const sets: string[] = [];
      const params: unknown[] = [row.ctid];
      for (const c of t.columns) {
        const before = row.values[c.name];
        let value = after[c.name];
        if (JSON.stringify(value) === JSON.stringify(before)) continue;
        if (value === null && !c.nullable) value = c.json ? {} : ERASED_TEXT;
        params.push(c.json && value !== null ? JSON.stringify(value) : value);
        sets.push(`${quoteIdent(c.name)} = $${params.length}${c.json ? `::${c.type}` : ''}`);
      }
      if (sets.length === 0) continue;
      await client.query(`UPDATE ${quoteIdent(t.table)} SET ${sets.join(', ')} WHERE ctid = $1::tid`, params);
      result.anonymised++;
    }
    await AFTER[t.table]?.(client, found.calls);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
