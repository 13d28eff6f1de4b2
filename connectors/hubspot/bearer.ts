// The bearer token of each request of an OAuth install: call() fetches a valid token from the renewing
// token right before the request leaves (after the rate gate's wait), and runs the request in an async
// context holding it, where the client's middleware (generated APIs) and apiRequest wrapper put it in
// the Authorization header. A 401 for an expired token invalidates that very token and retries once.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client } from '@hubspot/api-client';
import { HubSpotUnauthorized, isExpiredAuthentication } from './errors';

/** Where an OAuth install's access tokens come from (connectors/crm/renewing-token.ts). */
export interface BearerTokens {
  current(): Promise<string>;
  invalidate(accessToken: string): void;
}

/** The client middleware that sets each request's bearer token, and the request wrapper that chooses it. */
export class BearerScope {
  private readonly scope = new AsyncLocalStorage<string>();

  constructor(private readonly tokens: BearerTokens) {}

  /** The @hubspot/api-client middleware (generated APIs): the scope's token, else a current one. */
  readonly middleware = {
    pre: async (ctx: unknown) => {
      const token = this.scope.getStore() ?? (await this.tokens.current());
      (ctx as { setHeaderParam(k: string, v: string): void }).setHeaderParam(
        'Authorization',
        `Bearer ${token}`,
      );
      return ctx;
    },
    post: (ctx: unknown) => ctx,
  };

  /** Makes the client's raw apiRequest carry the scope's token and throw on a 401. */
  wrapApiRequest(client: Client): void {
    const raw = client.apiRequest.bind(client);
    client.apiRequest = async (opts = {}) => {
      const token = this.scope.getStore() ?? (await this.tokens.current());
      const res = await raw({ ...opts, headers: { ...opts.headers, Authorization: `Bearer ${token}` } });
      if (res.status === 401) throw new HubSpotUnauthorized(await res.json().catch(() => null));
      return res;
    };
  }

  /** Runs `send` with a valid token; after a 401 for an expired token, once more with a new one. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    const token = await this.tokens.current();
    try {
      return await this.scope.run(token, send);
    } catch (err) {
      if (!isExpiredAuthentication(err)) throw err;
      this.tokens.invalidate(token);
      return this.scope.run(await this.tokens.current(), send);
    }
  }
}
