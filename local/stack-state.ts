// What a data directory remembers between runs of `npm start` (local-state.json): the token that
// marks its Temporal dev server as its own, and the ports its services had, so that a saved
// connection string (the warehouse's above all) keeps working after a restart.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const stateSchema = z.object({
  /** Names the Temporal marker namespace (local/temporal-dev-server.ts); stored in temporal.db. */
  ownerToken: z.string().regex(/^[a-z0-9]{8,32}$/),
  ports: z
    .object({
      postgres: z.number().int().positive().optional(),
      temporal: z.number().int().positive().optional(),
    })
    .default({}),
});

export type StackState = z.infer<typeof stateSchema>;

function stateFile(dataDir: string): string {
  return join(dataDir, 'local-state.json');
}

/** The data directory's state; a new owner token and no ports when it has none (or an unreadable one). */
export function readStackState(dataDir: string): StackState {
  const file = stateFile(dataDir);
  if (existsSync(file)) {
    try {
      const parsed = stateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // rewritten below with a fresh token
    }
  }
  return { ownerToken: randomBytes(8).toString('hex'), ports: {} };
}

/** Saves the state (written whole; it holds no secrets). */
export function saveStackState(dataDir: string, state: StackState): void {
  writeFileSync(stateFile(dataDir), `${JSON.stringify(state, null, 2)}\n`);
}
