// Audio bookkeeping of recordings and voice messages: the MD5 of every archived file (whichever object
// store), and audio the platform no longer has, recorded as lost with its reason so that it is not
// asked for again on every sync. The backlog index leaves lost rows out.
// Frozen: later changes go in new migrations, never here.
import { sql, type Kysely } from 'kysely';

const TABLES = ['recordings', 'voicemessages'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('audio_md5', 'text')
      .addColumn('audio_lost_at', 'timestamptz')
      .addColumn('audio_lost_reason', 'text')
      .execute();
    await db.schema.dropIndex(`${table}_audio_backlog_idx`).execute();
    await db.schema
      .createIndex(`${table}_audio_backlog_idx`)
      .on(table)
      .columns(['account', 'id'])
      .where(sql<boolean>`audio_archived_at is null and audio_lost_at is null`)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_audio_backlog_idx`).execute();
    await db.schema
      .createIndex(`${table}_audio_backlog_idx`)
      .on(table)
      .columns(['account', 'id'])
      .where(sql<boolean>`audio_archived_at is null`)
      .execute();
    await db.schema
      .alterTable(table)
      .dropColumn('audio_lost_reason')
      .dropColumn('audio_lost_at')
      .dropColumn('audio_md5')
      .execute();
  }
}
