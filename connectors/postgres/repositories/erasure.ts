// Erasure bookkeeping: the short-lived request row (the identifier, while its workflow runs), the
// record of each erasure (hash, time, counts), and the suppression list of keyed hashes.
import { sql, type Kysely } from 'kysely';
import type { Database, ErasureRequestRow, ErasureRow, JsonValue, RemovedFile } from '../tables';
import type { Queryable } from './webhook-inbox';

/** Stores (or keeps) the request of an erasure; the identifier lives here until the erasure ends. */
export async function putErasureRequest(
  db: Kysely<Database>,
  request: { subjectHash: string; kind: 'number' | 'email'; subject: string },
): Promise<void> {
  await db
    .insertInto('erasure_requests')
    .values({ subject_hash: request.subjectHash, kind: request.kind, subject: request.subject })
    .onConflict((oc) => oc.column('subject_hash').doNothing())
    .execute();
}

export async function getErasureRequest(
  db: Kysely<Database>,
  subjectHash: string,
): Promise<ErasureRequestRow | undefined> {
  return db
    .selectFrom('erasure_requests')
    .selectAll()
    .where('subject_hash', '=', subjectHash)
    .executeTakeFirst();
}

/** Saves what the erasure found (names, calls), so a resumed run erases them too. */
export async function saveErasureFindings(
  db: Kysely<Database>,
  subjectHash: string,
  found: JsonValue,
): Promise<void> {
  await db
    .updateTable('erasure_requests')
    .set({ found: JSON.stringify(found) })
    .where('subject_hash', '=', subjectHash)
    .execute();
}

/** Deletes the request: the last place the identifier was kept in clear. */
export async function deleteErasureRequest(db: Kysely<Database>, subjectHash: string): Promise<void> {
  await db.deleteFrom('erasure_requests').where('subject_hash', '=', subjectHash).execute();
}

/** Opens the record of one erasure run (one per workflow id: a retried open finds its row). */
export async function openErasure(
  db: Kysely<Database>,
  e: { subjectHash: string; kind: string; workflowId: string },
): Promise<string> {
  const existing = await db
    .selectFrom('erasures')
    .select('id')
    .where('workflow_id', '=', e.workflowId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (existing) return existing.id;
  const row = await db
    .insertInto('erasures')
    .values({ subject_hash: e.subjectHash, kind: e.kind, workflow_id: e.workflowId, counts: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Merges counts into an erasure's record (`{"warehouse.cdrs": 3, "archive": 2, …}`). */
export async function addErasureCounts(
  db: Kysely<Database>,
  id: string,
  counts: Record<string, number>,
): Promise<void> {
  await db
    .updateTable('erasures')
    .set({ counts: sql`counts || ${JSON.stringify(counts)}::jsonb` })
    .where('id', '=', id)
    .execute();
}

/** Adds report files the erasure deleted to its record (a retry adding the same file adds nothing). */
export async function addRemovedFiles(
  db: Kysely<Database>,
  id: string,
  files: readonly RemovedFile[],
): Promise<void> {
  if (files.length === 0) return;
  await db
    .updateTable('erasures')
    .set({
      removed_files: sql`(SELECT coalesce(jsonb_agg(DISTINCT f), '[]'::jsonb)
                            FROM jsonb_array_elements(removed_files || ${JSON.stringify(files)}::jsonb) AS f)`,
    })
    .where('id', '=', id)
    .execute();
}

/** The report files an erasure deleted (its record's `removed_files`). */
export async function erasureRemovedFiles(db: Kysely<Database>, id: string): Promise<RemovedFile[]> {
  const row = await db.selectFrom('erasures').select('removed_files').where('id', '=', id).executeTakeFirst();
  return row?.removed_files ?? [];
}

/** Marks a deleted report file as built again. */
export async function markRemovedFileRebuilt(db: Kysely<Database>, id: string, file: string): Promise<void> {
  await db
    .updateTable('erasures')
    .set({
      removed_files: sql`(SELECT coalesce(jsonb_agg(CASE WHEN f->>'file' = ${file} THEN f || '{"rebuilt": true}'::jsonb ELSE f END), '[]'::jsonb)
                            FROM jsonb_array_elements(removed_files) AS f)`,
    })
    .where('id', '=', id)
    .execute();
}

export async function finishErasure(
  db: Kysely<Database>,
  id: string,
  outcome: { status: 'done' | 'failed'; error?: string | null },
): Promise<void> {
  await db
    .updateTable('erasures')
    .set({ status: outcome.status, error: outcome.error ?? null, finished_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** The most recent erasures, newest first (for `status` and `erase --status`). */
export async function recentErasures(db: Kysely<Database>, limit = 20): Promise<ErasureRow[]> {
  return db
    .selectFrom('erasures')
    .selectAll()
    .orderBy('requested_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Adds hashes to the suppression list (idempotent). */
export async function addSuppressions(
  db: Kysely<Database>,
  entries: readonly { kind: string; hash: string }[],
): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('erasure_suppressions')
    .values(entries.map((e) => ({ kind: e.kind, hash: e.hash })))
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
}

/**
 * The suppression list, read incrementally: each call asks only for entries added since the last one
 * (one indexed query that usually returns nothing), so a sync page or an inbox batch pays little.
 */
export class SuppressionList {
  private readonly hashes = new Set<string>();
  private lastId = '0';

  constructor(private readonly q: Queryable) {}

  /** The id of the newest suppression read (`'0'` before any). */
  get newestId(): string {
    return this.lastId;
  }

  /** The current set (refreshed from the table). */
  async current(): Promise<ReadonlySet<string>> {
    const { rows } = await this.q.query<{ id: string; hash: string }>(
      'SELECT id::text AS id, hash FROM erasure_suppressions WHERE id > $1::bigint ORDER BY id',
      [this.lastId],
    );
    for (const r of rows) {
      this.hashes.add(r.hash);
      this.lastId = r.id;
    }
    return this.hashes;
  }
}
