// When the audio of a recording or voice message can be downloaded. Real platforms list a recording
// before its file is stored (the .mp3 answers 404 for a while) and lose some files for good. The
// readiness lives here, beside the rows, never in them: no API response may show it.

/** Tables whose rows have an .mp3. */
export type AudioTable = 'monitors' | 'voicemessages';

/** Ready times (emulator clock, epoch ms) of the audio of rows that were not ready when written. */
export class AudioReadiness {
  private readonly readyAt = new Map<string, number>();

  /** The row's audio is ready at `epochMs` (emulator clock); null: never (lost). */
  set(table: AudioTable, id: number, epochMs: number | null): void {
    this.readyAt.set(`${table}:${id}`, epochMs ?? Number.POSITIVE_INFINITY);
  }

  /** Whether the row's audio can be downloaded at `now`; rows never marked are ready. */
  ready(table: AudioTable, id: number, now: Date): boolean {
    const at = this.readyAt.get(`${table}:${id}`);
    return at === undefined || now.getTime() >= at;
  }

  /** Forgets every row (the store was replaced: ids start again). */
  clear(): void {
    this.readyAt.clear();
  }
}
