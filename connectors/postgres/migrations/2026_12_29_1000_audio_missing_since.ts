// Audio the platform does not have yet: right after hangup a recording's .mp3 often answers 404 for
// a while. The first 404 callsync saw for a file is kept, so later runs ask again until
// archive.missingAudioGrace has passed since it, and only then record the audio as lost.
// Frozen: later changes go in new migrations, never here.
import type { Kysely } from 'kysely';

const TABLES = ['recordings', 'voicemessages'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('audio_missing_since', 'timestamptz').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).dropColumn('audio_missing_since').execute();
  }
}
