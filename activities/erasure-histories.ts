// Finding a person in Temporal's histories, whatever the workflow type: every execution the namespace
// still lists is read (raw, and its payloads decoded when they are encrypted) and tested for their
// identifiers. Workflow ids built from the person (calls, callbacks) are deleted by id; this finds the
// rest (a screen-pop's caller, a received SMS's sender and text, a failure quoting the number). The
// erasure deletes what it finds; `callsync erase --verify` only lists it.
import type { Client } from '@temporalio/client';
import type { PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { IdentityMatcher } from '../lib/erasure/matchers';
import { payloadsOf } from '../lib/history-payloads';

/** One execution whose history names the person. */
export interface HistoryHit {
  workflowId: string;
  runId: string;
  workflowType: string;
}

/** Whether a text names the person: one of their identifiers in any form, or one of their names. */
export function namesPerson(matcher: IdentityMatcher, names: readonly string[]): (text: string) => boolean {
  // Short names ("Al") would match other people's histories: only full names are looked for.
  const lowered = names.map((n) => n.trim().toLowerCase()).filter((n) => n.length >= 5);
  return (text) => {
    if (matcher.replaceInText(text) !== text) return true;
    if (lowered.length === 0) return false;
    const low = text.toLowerCase();
    return lowered.some((n) => low.includes(n));
  };
}

/** The history of one run as text: the raw protobuf, then each payload decoded (when encrypted). */
async function historyText(
  client: Client,
  codec: PayloadCodec | undefined,
  workflowId: string,
  runId: string,
): Promise<string | null> {
  const namespace = client.options.namespace;
  const parts: string[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService
      .getWorkflowExecutionHistory({
        namespace,
        execution: { workflowId, runId },
        ...(nextPageToken ? { nextPageToken } : {}),
      })
      .catch((err: unknown) => {
        // Deleted between the listing and the read.
        if ((err as { code?: unknown } | null)?.code === 5) return null;
        throw err;
      });
    if (!page) return parts.length > 0 ? parts.join('\n') : null;
    const history = page.history ?? {};
    parts.push(Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1'));
    const payloads = payloadsOf(history);
    if (codec && payloads.length > 0) {
      const decoded = await codec.decode(payloads as never).catch(() => []);
      for (const p of decoded) parts.push(Buffer.from(p.data ?? []).toString('utf8'));
    }
    nextPageToken = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return parts.join('\n');
}

/**
 * Every execution (any type but the erasure's own, whose history holds only hashes) whose history
 * names the person. `progress` is called per execution read (heartbeats).
 */
export async function* historiesNaming(
  client: Client,
  codec: PayloadCodec | undefined,
  names: (text: string) => boolean,
  progress: (read: number) => void = () => {},
): AsyncGenerator<HistoryHit> {
  let read = 0;
  for await (const w of client.workflow.list({ query: `WorkflowType != 'erasePerson'` })) {
    progress(++read);
    const text = await historyText(client, codec, w.workflowId, w.runId);
    if (text !== null && names(text))
      yield { workflowId: w.workflowId, runId: w.runId, workflowType: w.type };
  }
}
