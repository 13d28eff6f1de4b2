// Stream tables of the Customer, Settings, Reports and Call Me Back modules: contacts, users,
// queues, ring_groups, report_schedules, callmeback_cdrs, callmeback_visitors.
// Frozen: later changes go in new migrations, never here.
import { sql, type ColumnDataType, type Kysely } from 'kysely';

type Columns = readonly (readonly [string, ColumnDataType])[];

const MONEY = 'numeric(12, 4)';

async function createStreamTable(db: Kysely<unknown>, table: string, columns: Columns) {
  let builder = db.schema
    .createTable(table)
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('id', 'bigint', (c) => c.notNull());
  for (const [name, type] of columns) builder = builder.addColumn(name, type);
  await builder
    .addColumn('raw', 'jsonb', (c) => c.notNull())
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint(`${table}_pkey`, ['account', 'id'])
    .execute();
}

async function createIndex(db: Kysely<unknown>, table: string, column: string) {
  await db.schema
    .createIndex(`${table}_account_${column}_idx`)
    .on(table)
    .columns(['account', column])
    .execute();
}

const CALL_ME_BACK: Columns = [
  ['allowed_countries', 'jsonb'],
  ['button_id', 'bigint'],
  ['created_at', 'timestamptz'],
  ['culture', 'text'],
  ['ddi', 'bigint'],
  ['floating_icon', 'boolean'],
  ['max_call_rate', MONEY],
  ['name', 'text'],
  ['position', 'text'],
  ['privacy_policy_url', 'text'],
  ['show_to_allowed_countries_only', 'boolean'],
  ['title', 'text'],
  ['welcome_screen_msg', 'text'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await createStreamTable(db, 'contacts', [
    ['company', 'text'],
    ['created_at', 'timestamptz'],
    ['dial_flow_completed_at', 'timestamptz'],
    ['dialler_source_id', 'bigint'],
    ['email', 'text'],
    ['ext', 'text'],
    ['first_name', 'text'],
    ['global', 'boolean'],
    ['group_name', 'text'],
    ['internal', 'boolean'],
    ['last_call_at', 'timestamptz'],
    ['last_name', 'text'],
    ['mobile', 'text'],
    ['mobile_1', 'text'],
    ['mobile_2', 'text'],
    ['nb_call_attempts', 'bigint'],
    ['next_call_at', 'timestamptz'],
    ['notes', 'jsonb'],
    ['outcome_id', 'bigint'],
    ['rel_user_id', 'bigint'],
    ['tel', 'text'],
    ['tel_1', 'text'],
    ['tel_2', 'text'],
    ['type', 'text'],
    ['user_id', 'bigint'],
  ]);
  await createIndex(db, 'contacts', 'created_at');

  await createStreamTable(db, 'users', [
    ['is_initial', 'boolean'],
    ['email', 'text'],
    ['first_name', 'text'],
    ['last_name', 'text'],
    ['roles', 'jsonb'],
    ['active', 'boolean'],
    ['visited_apps', 'jsonb'],
    ['is_root', 'boolean'],
    ['two_factor_auth', 'text'],
    ['created_at', 'timestamptz'],
    ['customer_id_id', 'bigint'],
    ['customer', 'bigint'],
    ['mobile_activated', 'boolean'],
    ['mobile', 'text'],
    ['ext', 'text'],
    ['cli', 'text'],
    ['esc_cli', 'text'],
    ['cc', 'text'],
    ['area_code', 'text'],
    ['ring_time', 'text'],
    ['final_dst_type', 'text'],
    ['final_dst_id', 'bigint'],
    ['vm_pin', 'text'],
    ['vm_to_email', 'boolean'],
    ['vm_emails', 'jsonb'],
    ['vm_tts', 'text'],
    ['vm_new', 'bigint'],
    ['vm_old', 'bigint'],
    ['cw', 'boolean'],
    ['dnd', 'boolean'],
    ['rec_allowed', 'boolean'],
    ['rec_never_internal', 'boolean'],
    ['fm', 'boolean'],
    ['fm_only_direct', 'boolean'],
    ['fm_init_ring_time', 'bigint'],
    ['fm_announcement_enabled', 'boolean'],
    ['fm_confirm_required', 'boolean'],
    ['fm_allowed', 'boolean'],
    ['fm_targets', 'jsonb'],
    ['fm_ring_time', 'text'],
    ['fm_strategy', 'text'],
    ['fm_final_dst_type', 'text'],
    ['fm_final_dst_id', 'bigint'],
    ['fm_cli', 'text'],
    ['nun', 'text'],
    ['nun_only_direct', 'boolean'],
    ['nun_ring_time', 'bigint'],
    ['monitor', 'text'],
    ['monitor_transcript', 'text'],
    ['auto_answer_header', 'text'],
    ['log_missed_calls', 'boolean'],
    ['language', 'text'],
    ['cnam', 'boolean'],
    ['email_missed', 'text'],
    ['call_barge_allowed', 'boolean'],
    ['transfer_cli', 'text'],
    ['nb_sip_locations', 'bigint'],
    ['pickup_group_id', 'bigint'],
    ['location_id', 'text'],
    ['vm_announcement_id', 'bigint'],
    ['fm_announcement_id', 'bigint'],
    ['legacy_api_key', 'text'],
  ]);
  await createIndex(db, 'users', 'created_at');

  await createStreamTable(db, 'queues', [
    ['ann_freq', 'bigint'],
    ['call_flow', 'bigint'],
    ['final_dst_id', 'bigint'],
    ['final_dst_type', 'text'],
    ['ivr', 'bigint'],
    ['language', 'text'],
    ['max_callers', 'bigint'],
    ['max_wait_time', 'bigint'],
    ['moh', 'bigint'],
    ['monitor', 'text'],
    ['number', 'bigint'],
    ['post_call_ivr_id', 'bigint'],
    ['retry', 'bigint'],
    ['ring_strategy', 'text'],
    ['ring_time', 'bigint'],
    ['wrap_up_panel_timeout', 'bigint'],
    ['wrap_up_time', 'bigint'],
    ['caller_sounds', 'jsonb'],
    ['email_missed', 'text'],
    ['name', 'text'],
    ['cli_prefix', 'boolean'],
    ['hash_to_exit', 'boolean'],
    ['hold_ann', 'boolean'],
    ['join_empty', 'boolean'],
    ['liaf', 'boolean'],
    ['pos_ann', 'boolean'],
    ['skip_busy', 'boolean'],
    ['wait_time_prefix', 'boolean'],
    ['wrap_up_panel', 'boolean'],
  ]);

  await createStreamTable(db, 'ring_groups', [
    ['cli_prefix', 'boolean'],
    ['final_dst_id', 'bigint'],
    ['final_dst_type', 'text'],
    ['moh_id', 'bigint'],
    ['name', 'text'],
    ['number', 'bigint'],
    ['ring_time', 'bigint'],
    ['strategy', 'text'],
  ]);

  await createStreamTable(db, 'report_schedules', [
    ['created_at', 'timestamptz'],
    ['culture', 'text'],
    ['description', 'text'],
    ['emails', 'jsonb'],
    ['end_at', 'timestamptz'],
    ['format', 'text'],
    ['frequency', 'jsonb'],
    ['last_run_at', 'timestamptz'],
    ['name', 'text'],
    ['next_run_at', 'timestamptz'],
    ['report_id', 'bigint'],
    ['start_at', 'timestamptz'],
    ['status', 'text'],
    ['timezone', 'text'],
  ]);
  await createIndex(db, 'report_schedules', 'created_at');

  for (const table of ['callmeback_cdrs', 'callmeback_visitors']) {
    await createStreamTable(db, table, CALL_ME_BACK);
    await createIndex(db, table, 'created_at');
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = [
    'callmeback_visitors',
    'callmeback_cdrs',
    'report_schedules',
    'ring_groups',
    'queues',
    'users',
    'contacts',
  ];
  for (const table of tables) await db.schema.dropTable(table).ifExists().execute();
}
