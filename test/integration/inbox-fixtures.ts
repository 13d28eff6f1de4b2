// Stores webhook bodies in the inbox as the receiver does (parsed, classified, written), for relay
// tests that start from committed inbox rows.
import type { InboxWriter } from '../../server/inbox-writer';
import { parseWebhookBody } from '../../connectors/platform/webhook-body';
import { inboxEntry } from '../../server/webhook-routes';

/** Parses `body` like the receiver and commits it to the inbox; throws if the receiver would refuse it. */
export async function storeWebhook(inbox: InboxWriter, account: string, body: string): Promise<void> {
  const parsed = parseWebhookBody(body);
  if (!parsed.ok) throw new Error(parsed.reason);
  await inbox.write(inboxEntry(account, parsed.event, body));
}
