// The CRM mapping table also keys SMS and voice messages logged on contacts, and the CRM outcome
// written back to each call's CDR, so none of them is written twice. Frozen: later changes go in new
// migrations, never here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table crm_objects drop constraint if exists crm_objects_kind_check`.execute(db);
  await sql`alter table crm_objects add constraint crm_objects_kind_check
    check (kind in ('call_log', 'task', 'contact', 'sms', 'voicemail', 'outcome'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table crm_objects drop constraint if exists crm_objects_kind_check`.execute(db);
  await sql`alter table crm_objects add constraint crm_objects_kind_check
    check (kind in ('call_log', 'task', 'contact'))`.execute(db);
}
