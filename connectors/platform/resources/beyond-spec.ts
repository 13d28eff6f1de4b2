// Endpoints beyond the spec that the platform's own clients use (see docs/emulator.md "Beyond the spec"); kept
// apart from the spec's modules so the client's endpoint list shows them as extras.
import type { PlatformCore } from '../core/http-core';
import type { ListOptions } from '../core/pagination';
import {
  apiTokenSchema,
  conversationSchema,
  createApiTokenBody,
  patchQueueBody,
  transactionSchema,
} from '../schemas/beyond-spec';
import { queueSchema } from '../schemas/settings';
import { faxSchema } from '../schemas/storage';
import { download, getOne, list, remove, send, type Body, type CallOptions, type Id } from './common';

/** The endpoints beyond the spec this client calls, as 'METHOD /template'. */
export const BEYOND_SPEC_ENDPOINTS = [
  'GET /apitokens',
  'POST /apitokens',
  'DELETE /apitokens/{token}',
  'PATCH /queues/{id}',
  'GET /faxes/{id}',
  'GET /faxes/{id}.pdf',
  'GET /transactions',
  'GET /transactions/{id}',
  'GET /transactions/{id}.pdf',
  'GET /transactions/{id}/invoice',
  'GET /conversations',
] as const;

/** Endpoints beyond the spec. */
export function createBeyondSpecResource(core: PlatformCore) {
  return {
    apiTokens: {
      /** GET /apitokens: the caller's named tokens (filter on name to find one). */
      list: (options?: ListOptions) => list(core, '/apitokens', apiTokenSchema, options),
      /** POST /apitokens: mints a named token ({name, expiry}); `token` authenticates like an API key. */
      create: (body: Body<typeof createApiTokenBody>, o?: CallOptions) =>
        send(core, 'POST', '/apitokens', {}, body, apiTokenSchema, o),
      /** DELETE /apitokens/{token}: revokes a token. */
      delete: (token: string, o?: CallOptions) => remove(core, '/apitokens/{token}', { token }, o),
    },
    queues: {
      /** PATCH /queues/{id}: agents join or leave (`users`), or any field of POST /queues changes. */
      update: (id: Id, body: Body<typeof patchQueueBody>, o?: CallOptions) =>
        send(core, 'PATCH', '/queues/{id}', { id }, body, queueSchema, o),
    },
    faxes: {
      /** GET /faxes/{id}: one fax. */
      get: (id: Id, o?: CallOptions) => getOne(core, '/faxes/{id}', { id }, faxSchema, o),
      /** GET /faxes/{id}.pdf: the fax as a PDF, streamed (application/pdf). */
      pdf: (id: Id, o?: CallOptions) => download(core, '/faxes/{id}.pdf', { id }, o),
    },
    transactions: {
      /** GET /transactions: the account's ledger (invoices and payments with the running balance). */
      list: (options?: ListOptions) => list(core, '/transactions', transactionSchema, options),
      /** GET /transactions/{id}: one ledger entry (the official CLI's `vs invoice`). */
      get: (id: Id, o?: CallOptions) => getOne(core, '/transactions/{id}', { id }, transactionSchema, o),
      /** GET /transactions/{id}.pdf: a completed transaction's PDF, streamed; 409 while it is pending. */
      pdf: (id: Id, o?: CallOptions) => download(core, '/transactions/{id}.pdf', { id }, o),
      /** GET /transactions/{id}/invoice: the invoice of that transaction as a PDF, streamed. */
      invoice: (id: Id, o?: CallOptions) => download(core, '/transactions/{id}/invoice', { id }, o),
    },
    conversations: {
      /** GET /conversations: SMS and chat threads, one per counterpart, newest first. */
      list: (options?: ListOptions) => list(core, '/conversations', conversationSchema, options),
    },
  };
}
