import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import {
  appliedMigrations,
  createDatabase,
  migrateToLatest,
  MigrationError,
  STREAM_NAMES,
  STREAM_TABLES,
  type WarehouseDatabase,
  claimTypeOnlyRows,
} from '../../connectors/postgres';
import { migrations } from '../../connectors/postgres/migrations';
import { createTestDatabase, type TestDatabase } from './warehouse-db';

const MIGRATIONS = [
  '2026_11_22_0900_create_history_tables',
  '2026_11_22_0901_create_directory_tables',
  '2026_11_22_0902_create_service_state',
  '2026_11_22_1000_create_call_events',
  '2026_12_01_0900_create_webhook_inbox',
  '2026_12_01_0930_create_crm_tables',
  '2026_12_08_0900_create_call_failures',
  '2026_12_08_0910_create_callback_dials',
  '2026_12_08_0930_webhook_retention_indexes',
  '2026_12_20_0900_create_report_runs',
  '2026_12_20_1100_create_report_deliveries',
  '2026_12_21_0900_audio_checksum_and_lost',
  '2026_12_21_1000_create_google_apps_tables',
  '2026_12_22_0900_create_vendor_daily_budgets',
  '2026_12_24_1000_create_contact_sync',
  '2026_12_24_1100_create_crm_contact_cache',
  '2026_12_24_1101_crm_objects_conversation_kinds',
  '2026_12_24_1200_dashboard',
  '2026_12_24_1300_create_erasure_tables',
  '2026_12_24_1600_create_vendor_rate_slots',
  '2026_12_26_0900_create_cdr_outcomes',
  '2026_12_27_0900_create_builtin_messages',
  '2026_12_28_0900_create_vendor_rate_windows',
  '2026_12_29_0900_caller_reaches_and_dial_sends',
  '2026_12_29_1000_audio_missing_since',
  '2026_12_30_0900_contact_cache_by_account',
  '2026_12_30_0900_create_dashboard_users',
  '2026_12_31_0900_crm_mappings_by_destination',
  '2026_12_31_0900_erasure_removed_files',
  '2027_01_02_0900_call_failure_retries',
  '2027_01_03_0900_vendor_tokens',
  '2027_01_03_1000_create_stored_accounts',
  '2027_01_03_1010_create_crm_import_checkpoints',
  '2027_01_04_0900_vendor_rate_window_answers',
];

// format_type() spelling of each column type.
const FORMAT: Record<string, string> = { timestamptz: 'timestamp with time zone' };
const formatted = (pgType: string) => FORMAT[pgType] ?? pgType;

describe('warehouse migrations', () => {
  let test: TestDatabase;
  let warehouse: WarehouseDatabase;

  beforeAll(async () => {
    test = await createTestDatabase('migrations');
    warehouse = createDatabase(test.url);
  });
  afterAll(async () => {
    await warehouse.close();
    await test.drop();
  });

  it('run to latest once, then have nothing left to do', async () => {
    expect(await migrateToLatest(warehouse.db)).toEqual(MIGRATIONS);
    expect(await migrateToLatest(warehouse.db)).toEqual([]);
    expect(await appliedMigrations(warehouse.db)).toEqual(MIGRATIONS);
  });

  it('create every stream table with exactly the registry columns, in order, plus account and synced_at', async () => {
    for (const stream of STREAM_NAMES) {
      const spec = STREAM_TABLES[stream];
      const { rows } = await sql<{ name: string; type: string; not_null: boolean }>`
        select attname as name, format_type(atttypid, atttypmod) as type, attnotnull as not_null
        from pg_attribute where attrelid = ${spec.table}::regclass and attnum > 0 and not attisdropped
        order by attnum`.execute(warehouse.db);
      const expected = [
        { name: 'account', type: 'text', not_null: true },
        ...spec.columns.map((c) => ({
          name: c.name,
          type: formatted(c.pgType),
          not_null: c.name === 'id' || c.name === 'raw',
        })),
        { name: 'synced_at', type: 'timestamp with time zone', not_null: true },
        ...(spec.hasAudio
          ? [
              { name: 'audio_uri', type: 'text', not_null: false },
              { name: 'audio_bytes', type: 'bigint', not_null: false },
              { name: 'audio_archived_at', type: 'timestamp with time zone', not_null: false },
              { name: 'audio_md5', type: 'text', not_null: false },
              { name: 'audio_lost_at', type: 'timestamp with time zone', not_null: false },
              { name: 'audio_lost_reason', type: 'text', not_null: false },
              { name: 'audio_missing_since', type: 'timestamp with time zone', not_null: false },
            ]
          : []),
      ];
      expect({ stream, columns: rows }).toEqual({ stream, columns: expected });
    }
  });

  it('key every stream table on (account, id) and index the obvious queries', async () => {
    const { rows } = await sql<{ tablename: string; indexdef: string }>`
      select tablename, indexdef from pg_indexes where schemaname = 'public'`.execute(warehouse.db);
    const defs = (table: string) =>
      rows.filter((r) => r.tablename === table).map((r) => r.indexdef.replace(/^.* USING btree /, ''));
    for (const stream of STREAM_NAMES) expect(defs(stream)).toContain('(account, id)');
    expect(defs('cdrs').sort()).toEqual(
      [
        '(account, id)',
        '(account, calldate)',
        '(account, user_id)',
        '(account, live_id)',
        '(account, src)',
        '(account, dst)',
        '(account, disposition, calldate)',
      ].sort(),
    );
    expect(defs('recordings')).toEqual(
      expect.arrayContaining([
        '(account, live_id)',
        '(account, created_at)',
        '(account, id) WHERE ((audio_archived_at IS NULL) AND (audio_lost_at IS NULL))',
      ]),
    );
    expect(defs('voicemessages')).toContain('(account, live_id)');
    for (const table of [
      'sms',
      'faxes',
      'chats',
      'msdrs',
      'contacts',
      'users',
      'report_schedules',
      'callmeback_cdrs',
    ]) {
      expect(defs(table)).toContain('(account, created_at)');
    }
    expect(defs('sync_checkpoints')).toEqual(['(account, stream, scope)']);
    expect(defs('quarantined_records')).toContain('(account, stream, record_id)');
  });

  it('can run from several processes at once (the Migrator takes a lock)', async () => {
    const other = await createTestDatabase('migrations_race');
    const a = createDatabase(other.url);
    const b = createDatabase(other.url);
    try {
      const [ra, rb] = await Promise.all([migrateToLatest(a.db), migrateToLatest(b.db)]);
      expect([...ra, ...rb].sort()).toEqual(MIGRATIONS);
    } finally {
      await a.close();
      await b.close();
      await other.drop();
    }
  });

  it('report a failing migration by name, with the database error', async () => {
    const other = await createTestDatabase('migrations_fail');
    const w = createDatabase(other.url);
    try {
      await sql`create table cdrs (something int)`.execute(w.db);
      const failure = await migrateToLatest(w.db).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(MigrationError);
      expect((failure as MigrationError).migration).toBe(MIGRATIONS[0]);
      expect((failure as MigrationError).message).toMatch(/create_history_tables failed: .*already exists/);
      expect(await appliedMigrations(w.db)).toEqual([]);
    } finally {
      await w.close();
      await other.drop();
    }
  });

  it('keep CRM state written before it had destination identities, for the start to claim, and back', async () => {
    const other = await createTestDatabase('migrations_crm_identity');
    const w = createDatabase(other.url);
    const name = '2026_12_31_0900_crm_mappings_by_destination';
    const before = Object.fromEntries(Object.entries(migrations).filter(([n]) => n !== name));
    const migrator = (all: typeof migrations) =>
      new Migrator({
        db: w.db,
        provider: { getMigrations: async () => ({ ...all }) },
        allowUnorderedMigrations: true,
      });
    try {
      expect((await migrator(before).migrateToLatest()).error).toBeUndefined();
      // Rows of an older callsync: keyed by the destination's type alone.
      await sql`insert into crm_objects (account, destination, kind, source_key, crm_id)
        values ('acme', 'hubspot', 'call_log', 'acme:1', '501'), ('beta', 'hubspot', 'call_log', 'beta:1', '601'),
               ('acme', 'builtin', 'task', 'acme:callback:+44:1', 'builtin:7')`.execute(w.db);
      await sql`insert into contact_sync_state (account, destination, phase, stage) values ('acme', 'hubspot', 'incremental', 'done')`.execute(
        w.db,
      );
      await sql`insert into sync_checkpoints (account, stream, scope, cursor) values ('acme', 'crm_outcomes', 'hubspot', 'c1')`.execute(
        w.db,
      );
      expect(await migrateToLatest(w.db)).toEqual([name]);
      const moved = await claimTypeOnlyRows(
        w.db,
        [
          { account: 'acme', type: 'hubspot', destination: 'hubspot:portal-a' },
          { account: 'beta', type: 'salesforce', destination: 'salesforce:https://beta.my.salesforce.com' },
        ],
        ['crm_outcomes'],
      );
      expect([...moved]).toEqual([['acme', 3]]);
      const objects = await sql<{ account: string; destination: string }>`
        select account, destination from crm_objects order by account, kind`.execute(w.db);
      expect(objects.rows).toEqual([
        { account: 'acme', destination: 'hubspot:portal-a' },
        { account: 'acme', destination: 'builtin' },
        // beta is on Salesforce now: its HubSpot rows are no object of that org, and stay as they were.
        { account: 'beta', destination: 'hubspot' },
      ]);
      // Down: type-only keys again.
      expect((await migrator(migrations).migrateDown()).error).toBeUndefined();
      const down = await sql<{ destination: string }>`
        select destination from crm_objects where account = 'acme' and kind = 'call_log'`.execute(w.db);
      expect(down.rows).toEqual([{ destination: 'hubspot' }]);
      const scope = await sql<{ scope: string }>`select scope from sync_checkpoints`.execute(w.db);
      expect(scope.rows).toEqual([{ scope: 'hubspot' }]);
    } finally {
      await w.close();
      await other.drop();
    }
  });

  it('set every connection to UTC', async () => {
    const { rows } = await sql<{ tz: string }>`select current_setting('TimeZone') as tz`.execute(
      warehouse.db,
    );
    expect(rows[0]?.tz).toBe('UTC');
  });
});
