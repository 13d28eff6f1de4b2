// The one request core of the Zendesk destination: every request goes through node-zendesk (the
// official client: URL assembly, auth header, JSON), behind the account's rate (RateGate, Zendesk's
// 429 and Retry-After waited out when short), with the current credentials (a 401 on OAuth renews
// the token and sends once more: Zendesk refused before doing anything). node-zendesk throws some
// error statuses and returns others (a 429 with Retry-After, 502, 504), so the status of every answer
// is checked here, and every failure leaves as a CrmError.
import type { ZendeskClient } from 'node-zendesk';
import { lazyPackage } from '../../lib/lazy-package';
import { CrmError } from '../crm/errors';
import { RateGate } from '../crm/rate-gate';
import { zendeskOrigin, type ZendeskConfig } from './config';
import type { CredentialSource, ZendeskAuthHeader } from './credentials';
import { DESTINATION, retryAfterMs, toCrmError, ZendeskHttpError, zendeskRateLimit } from './errors';

const nodeZendesk = lazyPackage<typeof import('node-zendesk')>('node-zendesk');

/** What node-zendesk's resource calls answer. */
export interface ClientAnswer {
  response: { status: number; headers: { get(name: string): string | null } };
  result: unknown;
}

/** A call of the official client, given a client built for the current credentials. */
export type ClientCall = (client: ZendeskClient) => Promise<unknown>;

/** The inner gate of sendExport takes a place and leaves every error to the outer one. */
const passThrough = (): null => null;

/** OAuth renewals one request may go through (each after a 401). */
const MAX_RENEWALS = 1;

export class ZendeskApi {
  private readonly clients = new Map<string, ZendeskClient>();
  private readonly endpointUri: string;

  constructor(
    config: ZendeskConfig,
    private readonly gate: RateGate,
    private readonly credentials: CredentialSource,
    /** The incremental exports' own limit (10 requests a minute), taken besides the account's. */
    private readonly exportGate?: RateGate,
  ) {
    this.endpointUri = `${zendeskOrigin(config)}/api/v2`;
  }

  /** Rate-limited answers seen so far (for tests and metrics). */
  get throttled(): number {
    return this.gate.throttled;
  }

  /** Sends `call` and answers its result (node-zendesk's body, unwrapped), or throws a CrmError. */
  async send(what: string, call: ClientCall): Promise<unknown> {
    try {
      return await this.gate.run(() => this.withCredentials(what, call), zendeskRateLimit);
    } catch (err) {
      throw toCrmError(err);
    }
  }

  /**
   * Sends a request to an incremental export endpoint: under its own limit as well as the account's
   * (https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/#rate-limits).
   * A 429 is waited out by the export gate, which takes a place in both windows before sending again.
   */
  async sendExport(what: string, call: ClientCall): Promise<unknown> {
    if (!this.exportGate) return this.send(what, call);
    const exportGate = this.exportGate;
    try {
      return await exportGate.run(
        () => this.gate.run(() => this.withCredentials(what, call), passThrough),
        zendeskRateLimit,
      );
    } catch (err) {
      throw toCrmError(err);
    }
  }

  private async withCredentials(what: string, call: ClientCall): Promise<unknown> {
    let auth = await this.credentials.current();
    for (let renewals = 0; ; renewals++) {
      try {
        return await this.once(what, call, auth);
      } catch (err) {
        if (!(err instanceof ZendeskHttpError) || err.status !== 401) throw err;
        if (!this.credentials.invalidate(auth)) {
          throw new CrmError({
            destination: DESTINATION,
            status: 401,
            code: 'UNAUTHORIZED',
            message: `${what}: Zendesk refused the API token (check crm auth email and apiToken)`,
            retryable: false,
          });
        }
        if (renewals >= MAX_RENEWALS) throw err;
        auth = await this.credentials.current();
      }
    }
  }

  private async once(what: string, call: ClientCall, auth: ZendeskAuthHeader): Promise<unknown> {
    let answer: ClientAnswer;
    try {
      answer = (await call(this.clientFor(auth))) as ClientAnswer;
    } catch (err) {
      // throwOriginalException: node-zendesk's status errors carry statusCode and the body (result).
      const status = (err as { statusCode?: unknown } | null)?.statusCode;
      if (typeof status === 'number') {
        throw new ZendeskHttpError(status, (err as { result?: unknown }).result, undefined, what);
      }
      throw err;
    }
    const { status } = answer.response;
    if (status >= 400) {
      const result =
        answer.result instanceof Error ? (answer.result as { result?: unknown }).result : answer.result;
      throw new ZendeskHttpError(
        status,
        result,
        retryAfterMs(answer.response.headers.get('retry-after')),
        what,
      );
    }
    return answer.result;
  }

  /** node-zendesk builds its auth header from its options: one client per credential. */
  private clientFor(auth: ZendeskAuthHeader): ZendeskClient {
    const id = `${auth.kind}\n${auth.token}`;
    let client = this.clients.get(id);
    if (!client) {
      // Only the current credential's client is kept: renewed tokens replace the old one.
      this.clients.clear();
      client = nodeZendesk().createClient({
        endpointUri: this.endpointUri,
        token: auth.token,
        ...(auth.kind === 'api-token' ? { username: auth.email } : { oauth: true }),
        throwOriginalException: true,
      });
      this.clients.set(id, client);
    }
    return client;
  }
}
