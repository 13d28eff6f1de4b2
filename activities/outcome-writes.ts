// The platform side of the outcome write-back: call labels made sure of (listed once per pass,
// created when missing), and labels and notes on CDRs through PATCH /cdrs in batches. A batch the
// platform refuses for its content goes again item by item, so one CDR it refuses (an unknown id)
// fails alone, with its reason, and the others are written.
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  type BulkPatchCdrsBody,
  type PlatformClient,
} from '../connectors/platform';

/** One CDR's new labels and note. */
export type CdrWrite = BulkPatchCdrsBody[number] & { id: number };

/** The account's call labels by name: read once, created as outcomes need them. */
export class CallLabelBook {
  private names: Promise<Set<string>> | undefined;
  /** Labels this book created. */
  created = 0;

  constructor(private readonly platform: PlatformClient) {}

  /** Creates the labels among `names` the account does not have yet. */
  async ensure(names: Iterable<string>): Promise<void> {
    const known = await this.known();
    for (const name of new Set(names)) {
      if (known.has(name)) continue;
      await this.platform.calls.labels.create({ name });
      known.add(name);
      this.created++;
    }
  }

  private known(): Promise<Set<string>> {
    this.names ??= (async () => {
      const names = new Set<string>();
      for await (const l of this.platform.calls.labels.list({ limit: 1000 })) if (l.name) names.add(l.name);
      return names;
    })().catch((err: unknown) => {
      this.names = undefined;
      throw err;
    });
    return this.names;
  }
}

/** A refusal about the request's content, which sending it again cannot fix. */
const isRefusal = (err: unknown) =>
  err instanceof BadRequestError || err instanceof NotFoundError || err instanceof ForbiddenError;

/**
 * Sends `writes` in PATCH /cdrs requests of `batchSize`. Returns the CDRs the platform refused, with
 * its reason; anything else (5xx, network, 429 past its retries) is thrown for the activity's retry.
 */
export async function patchCdrs(
  platform: PlatformClient,
  writes: readonly CdrWrite[],
  batchSize: number,
): Promise<Map<number, string>> {
  const refused = new Map<number, string>();
  for (let i = 0; i < writes.length; i += batchSize) {
    const batch = writes.slice(i, i + batchSize);
    try {
      await platform.history.cdrs.bulkUpdate(batch);
      continue;
    } catch (err) {
      if (!isRefusal(err)) throw err;
      if (batch.length === 1) {
        refused.set(batch[0]!.id, (err as Error).message);
        continue;
      }
    }
    for (const w of batch) {
      try {
        await platform.history.cdrs.bulkUpdate([w]);
      } catch (err) {
        if (!isRefusal(err)) throw err;
        refused.set(w.id, (err as Error).message);
      }
    }
  }
  return refused;
}
