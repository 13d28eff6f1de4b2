// Resources the spec does not show but the platform's own clients use (its official CLI logs in with
// named API tokens). Request and response shapes as those clients send and read them.
import { z } from 'zod';
import { body, integer, opt, requiredText, text } from './requests/fields';
import { createQueueBody } from './requests/settings';
import { date, int, intId, num, str } from './primitives';

/** A named API token (`token` is a credential: redacted wherever a body is kept). */
export const apiTokenSchema = z.looseObject({
  id: intId(),
  name: str(),
  token: str(),
  user_id: int(),
  /** Null: never expires. */
  expiry: date(),
  created_at: date(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/**
 * POST /apitokens: a name unique for the user, and an optional expiry: seconds from now (what the vendor
 * documents and its official CLI sends, VoIPstudio/cli-client src/auth.js) or a date (`YYYY-MM-DD[ HH:MM:SS]`).
 */
export const createApiTokenBody = body({ name: requiredText(), expiry: opt(z.union([integer(), text()])) });
export type CreateApiTokenBody = z.infer<typeof createApiTokenBody>;

/** PATCH /queues/{id}: agents join and leave (`users` of {id, status}); any field of POST /queues. */
export const patchQueueBody = createQueueBody.partial();
export type PatchQueueBody = z.infer<typeof patchQueueBody>;

/** A ledger entry as the billing clients read it; `invoice_id` names the invoice to download. */
export const transactionSchema = z.looseObject({
  id: intId(),
  date: date(),
  /** 'invoice' (a debit) or 'payment' (a credit); others may come from the live platform. */
  type: str(),
  description: str(),
  /** Negative for debits. */
  amount: num(),
  currency: str(),
  /** The account's balance after this entry. */
  balance: num(),
  invoice_id: str(),
  /** The official CLI's names (VoIPstudio/cli-client src/entities.js): the date and the currency again. */
  created_at: date(),
  currency_iso: str(),
  /** 'completed', or 'pending' for an invoice not paid yet (it has no .pdf yet). */
  result: str(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/** An SMS or chat thread with one counterpart (an SMS number, a chat visitor id), as the CTI inbox reads it. */
export const conversationSchema = z.looseObject({
  id: str(),
  /** 'sms' or 'chat'. */
  channel: str(),
  counterpart: str(),
  counterpart_name: str(),
  /** The user (SMS) or operator (chat) of the last message. */
  user_id: int(),
  /** Number of messages in the thread. */
  messages: int(),
  first_message_at: date(),
  last_message_at: date(),
  last_message: str(),
});
export type Conversation = z.infer<typeof conversationSchema>;
