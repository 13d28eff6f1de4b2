// Zendesk users: end users found by phone and created for unknown callers, agents found by e-mail
// (ticket assignees). Zendesk keeps a user's phone as it was typed ("E.164 is recommended, not
// enforced": https://developer.zendesk.com/api-reference/ticketing/users/users/), so callers are
// searched the way Talk Partner Edition integrations are told to: the number's digits with a leading
// wildcard, which matches every format ending in them
// (https://developer.zendesk.com/documentation/voice/talk-partner-edition/retrieving-the-zendesk-user-id-of-a-caller/),
// then each found phone is read as E.164 here and kept only when it is the caller's.
import type { CountryCode } from 'libphonenumber-js';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { toE164 } from '../../lib/phone';
import type { CrmContact } from '../crm/crm-connector';
import type { ZendeskApi } from './api';
import { isNotFound } from './errors';

const userSchema = z.looseObject({
  id: z.number(),
  name: z.string().nullish(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  role: z.string().nullish(),
  active: z.boolean().nullish(),
  updated_at: z.string().nullish(),
  external_id: z.string().nullish(),
});
export type ZendeskUser = z.infer<typeof userSchema>;

/** Search answers carry mixed results (`result_type`); callsync asks for users only. */
const searchResultsSchema = z.array(z.looseObject({ result_type: z.string().optional() }));

export function toCrmContact(u: ZendeskUser): CrmContact {
  return {
    crmId: String(u.id),
    kind: 'contact',
    name: u.name ?? null,
    // End users have no owner in Zendesk (agents are assignees of tickets, not of people).
    ownerId: null,
    updatedAt: u.updated_at ?? null,
  };
}

/** The digits searched for: the national number (its last digits end every way it is written). */
export function phoneSearchDigits(e164: string): string | null {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.isValid() ? parsed.nationalNumber : null;
}

export class ZendeskUsers {
  private readonly agents = new Map<string, Promise<string | null>>();

  constructor(
    private readonly api: ZendeskApi,
    private readonly country: CountryCode,
  ) {}

  /** End users whose phone is this E.164 number, however it was typed. */
  async findByPhone(e164: string): Promise<CrmContact[]> {
    const users = await this.searchByPhone(e164);
    return users.map((u) => toCrmContact(userSchema.parse(u)));
  }

  /** The active end users whose phone is this E.164 number, as Zendesk answers them (all their fields). */
  async searchByPhone(e164: string): Promise<Record<string, unknown>[]> {
    const digits = phoneSearchDigits(e164);
    if (!digits) return [];
    // GET /api/v2/search?query=… (https://developer.zendesk.com/api-reference/ticketing/ticket-management/search/);
    // one page of 100 is the most a number has in practice, and more would be a data problem.
    const result = await this.api.send('search users by phone', (c) =>
      c.search.query(`type:user role:end-user phone:*${digits}`),
    );
    return searchResultsSchema
      .parse(result)
      .filter((r) => r.result_type === undefined || r.result_type === 'user')
      .filter((r) => {
        const u = userSchema.parse(r);
        return u.active !== false && toE164(u.phone, this.country) === e164;
      });
  }

  /**
   * The active users whose primary e-mail is this one: GET /api/v2/users/search?query=<email>
   * (https://developer.zendesk.com/api-reference/ticketing/users/users/#search-users).
   */
  async searchByEmail(address: string): Promise<Record<string, unknown>[]> {
    const key = address.toLowerCase();
    const result = await this.api.send('find users by e-mail', (c) =>
      c.users.get(['users', 'search', { query: key }]),
    );
    return z
      .array(z.looseObject({ email: z.string().nullish(), active: z.boolean().nullish() }))
      .parse(result)
      .filter((u) => u.active !== false && u.email?.toLowerCase() === key);
  }

  /** Creates an end user for an unknown caller (Zendesk requires a name: the number stands in). */
  async create(input: { phone: string; name: string | null; key?: string }): Promise<CrmContact> {
    const result = await this.api.send('create end user', (c) =>
      c.users.create({
        user: {
          name: input.name ?? input.phone,
          phone: input.phone,
          role: 'end-user',
          // callsync's key, so a create whose answer was lost is found (findByKey) before search sees it.
          ...(input.key !== undefined ? { external_id: input.key } : {}),
        },
      }),
    );
    return toCrmContact(userSchema.parse(result));
  }

  /**
   * The end user callsync created under `key`: GET /api/v2/users/show_many?external_ids=… reads users
   * by external id directly, not through the search index, which lags minutes behind
   * (https://developer.zendesk.com/api-reference/ticketing/users/users/#show-many-users).
   */
  async findByKey(key: string): Promise<CrmContact | null> {
    const result = await this.api.send('find end user by external_id', (c) =>
      c.users.get(['users', 'show_many', { external_ids: key }]),
    );
    const users = z.array(userSchema).parse(result);
    const ours = users.find((u) => u.active !== false && u.external_id === key);
    return ours ? toCrmContact(ours) : null;
  }

  /**
   * Erasure of a user callsync created: deleted, then permanently deleted (DELETE
   * /api/v2/deleted_users/{id}, for a user deleted first:
   * https://developer.zendesk.com/api-reference/ticketing/users/users/#permanently-delete-user).
   * A user already gone at either step counts as deleted.
   */
  async delete(id: string): Promise<void> {
    const n = Number(id);
    for (const [what, path] of [
      ['delete end user', `users/${n}`],
      ['delete end user permanently', `deleted_users/${n}`],
    ] as const) {
      try {
        await this.api.send(what, (c) => c.users.request('DELETE', path));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /** The agent id of an e-mail (cached; null when no agent or admin has it). */
  agentId(email: string | null): Promise<string | null> {
    if (!email) return Promise.resolve(null);
    const key = email.toLowerCase();
    let pending = this.agents.get(key);
    if (!pending) {
      // GET /api/v2/users/search?query=<email> (https://developer.zendesk.com/api-reference/ticketing/users/users/#search-users)
      pending = this.api
        .send('find agent by e-mail', (c) => c.users.get(['users', 'search', { query: key }]))
        .then((result) => {
          const users = z.array(userSchema).parse(result);
          const agent = users.find(
            (u) => u.email?.toLowerCase() === key && (u.role === 'agent' || u.role === 'admin'),
          );
          return agent ? String(agent.id) : null;
        });
      this.agents.set(key, pending);
      pending.catch(() => this.agents.delete(key));
    }
    return pending;
  }
}
