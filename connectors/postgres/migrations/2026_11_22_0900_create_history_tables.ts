// Stream tables of the History and Storage modules: cdrs, msdrs, recordings, voicemessages, sms,
// faxes, chats. Frozen: later changes go in new migrations, never here.
import { sql, type ColumnDataType, type Kysely } from 'kysely';

type Columns = readonly (readonly [string, ColumnDataType])[];

const MONEY = 'numeric(12, 4)';

async function createStreamTable(db: Kysely<unknown>, table: string, columns: Columns, audio = false) {
  let builder = db.schema
    .createTable(table)
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull());
  for (const [name, type] of columns) builder = builder.addColumn(name, type);
  builder = builder
    .addColumn('raw', 'jsonb', (c) => c.notNull())
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`));
  if (audio) {
    builder = builder
      .addColumn('audio_uri', 'text')
      .addColumn('audio_bytes', 'bigint')
      .addColumn('audio_archived_at', 'timestamptz');
  }
  await builder.addPrimaryKeyConstraint(`${table}_pkey`, ['account', 'id']).execute();
}

async function createIndex(db: Kysely<unknown>, table: string, column: string) {
  await db.schema
    .createIndex(`${table}_account_${column}_idx`)
    .on(table)
    .columns(['account', column])
    .execute();
}

/** Rows whose audio is not archived yet, for the archiver to find without a scan. */
async function createAudioBacklogIndex(db: Kysely<unknown>, table: string) {
  await db.schema
    .createIndex(`${table}_audio_backlog_idx`)
    .on(table)
    .columns(['account', 'id'])
    .where(sql<boolean>`audio_archived_at is null`)
    .execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createStreamTable(db, 'cdrs', [
    ['duration', 'bigint'],
    ['live_id', 'bigint'],
    ['parent_live_id', 'bigint'],
    ['user_id', 'bigint'],
    ['sip_endpoint_id', 'bigint'],
    ['server_id', 'bigint'],
    ['type', 'text'],
    ['calldate', 'timestamptz'],
    ['clid', 'text'],
    ['src_id', 'text'],
    ['src_name', 'text'],
    ['src', 'text'],
    ['src_ua', 'text'],
    ['src_codec', 'text'],
    ['dst_id', 'text'],
    ['dst', 'text'],
    ['dst_name', 'text'],
    ['dst_ua', 'text'],
    ['dst_codec', 'text'],
    ['billsec', 'bigint'],
    ['disposition', 'text'],
    ['destination', 'text'],
    ['context', 'text'],
    ['rate', MONEY],
    ['charge', MONEY],
    ['t_cause', 'text'],
    ['info', 'text'],
    ['call_id', 'bigint'],
    ['is_root', 'boolean'],
    ['root_live_id', 'bigint'],
  ]);
  for (const column of ['calldate', 'user_id', 'live_id', 'src', 'dst'])
    await createIndex(db, 'cdrs', column);

  await createStreamTable(db, 'msdrs', [
    ['call_id', 'text'],
    ['created_at', 'timestamptz'],
    ['dst', 'text'],
    ['dst_id', 'text'],
    ['dst_ua', 'text'],
    ['duration', 'bigint'],
    ['media_session_id', 'bigint'],
    ['src', 'text'],
    ['src_id', 'text'],
    ['src_ua', 'text'],
    ['t_cause', 'text'],
    ['type', 'text'],
    ['user_id', 'bigint'],
  ]);
  await createIndex(db, 'msdrs', 'created_at');

  await createStreamTable(
    db,
    'recordings',
    [
      ['created_at', 'timestamptz'],
      ['token', 'text'],
      ['live_id', 'bigint'],
      ['transcript', 'text'],
      ['transcript_speakers', 'text'],
      ['summary', 'text'],
      ['sentiment', 'text'],
      ['cx_score', 'bigint'],
      ['metadata', 'jsonb'],
    ],
    true,
  );
  await createIndex(db, 'recordings', 'live_id');
  await createIndex(db, 'recordings', 'created_at');
  await createAudioBacklogIndex(db, 'recordings');

  await createStreamTable(
    db,
    'voicemessages',
    [
      ['caller', 'text'],
      ['callerid', 'text'],
      ['dialled', 'text'],
      ['duration', 'bigint'],
      ['extension_id', 'bigint'],
      ['folder', 'text'],
      ['is_new', 'boolean'],
      ['live_id', 'bigint'],
      ['origtime', 'text'],
      ['parent_live_id', 'bigint'],
      ['transcript', 'text'],
    ],
    true,
  );
  await createIndex(db, 'voicemessages', 'live_id');
  await createAudioBacklogIndex(db, 'voicemessages');

  await createStreamTable(db, 'sms', [
    ['created_at', 'timestamptz'],
    ['from', 'text'],
    ['from_id', 'text'],
    ['from_name', 'text'],
    ['message', 'text'],
    ['result', 'text'],
    ['to', 'text'],
    ['to_id', 'text'],
    ['to_name', 'text'],
    ['type', 'text'],
    ['user_id', 'bigint'],
  ]);
  await createIndex(db, 'sms', 'created_at');

  await createStreamTable(db, 'faxes', [
    ['charge', MONEY],
    ['created_at', 'timestamptz'],
    ['filename', 'text'],
    ['from', 'text'],
    ['pages', 'bigint'],
    ['status', 'text'],
    ['to', 'text'],
    ['type', 'text'],
  ]);
  await createIndex(db, 'faxes', 'created_at');

  await createStreamTable(db, 'chats', [
    ['created_at', 'timestamptz'],
    ['customer_id', 'bigint'],
    ['duration', 'bigint'],
    ['operator_id', 'bigint'],
    ['operator_ua', 'text'],
    ['state', 'text'],
    ['visitor_city', 'text'],
    ['visitor_country', 'text'],
    ['visitor_email', 'text'],
    ['visitor_geo', 'text'],
    ['visitor_id', 'text'],
    ['visitor_ip', 'text'],
    ['visitor_name', 'text'],
    ['visitor_referer', 'text'],
    ['visitor_ua', 'text'],
    ['website_id', 'bigint'],
  ]);
  await createIndex(db, 'chats', 'created_at');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['chats', 'faxes', 'sms', 'voicemessages', 'recordings', 'msdrs', 'cdrs']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
