// The Zoho connector's one request core: every request goes through the official SDK with the
// current access token (renewed through the shared token store, one worker at a time), at most
// `maxConcurrentRequests` at once (Zoho's per-org concurrency limit) and at the configured rate (the
// RateGate, which waits out a 429 until X-RATELIMIT-RESET when short). A 401 renews the token and
// sends once more. Answers come back as Zoho's JSON; refusals become CrmErrors.
import { CrmError } from '../crm/errors';
import { RateGate, type TokenSourceFactory } from '../crm/rate-gate';
import { RenewingToken } from '../crm/renewing-token';
import type { TokenStore } from '../crm/vendor-token-store';
import type { ZohoConfig } from './config';
import { DESTINATION, refusal, sdkRefusal, toCrmError, zohoErrorOf, zohoRateLimit } from './errors';
import type { Fields } from './fields';
import { zohoRefreshGrant, zohoTokenKey } from './oauth';
import {
  withZohoContext,
  zohoEndpoints,
  zohoSdk,
  type RawResponse,
  type ZohoAnswer,
  type ZohoRecord,
  type ZohoSdk,
} from './sdk';

/** At most `max` tasks at once, the rest queued in order. */
class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export interface ZohoClientOptions {
  /** Where the current access token is kept for every worker (PostgreSQL). */
  tokenStore: () => TokenStore<unknown>;
  /** Token buckets shared by every worker (PostgreSQL); default: this process's own. */
  limiters?: TokenSourceFactory | undefined;
  onTokenRefreshFailed?: (() => void) | undefined;
}

export class ZohoClient {
  readonly apiUrl: string;
  private readonly gate: RateGate;
  private readonly concurrency: ConcurrencyLimit;
  private readonly tokens: RenewingToken<unknown>;

  constructor(
    private readonly config: ZohoConfig,
    opts: ZohoClientOptions,
  ) {
    const { apiUrl, tokenUrl } = zohoEndpoints(config);
    this.apiUrl = apiUrl;
    const burst = Math.max(1, Math.ceil(config.requestsPerSecond));
    this.gate = new RateGate({
      destination: DESTINATION,
      requestsPerSecond: config.requestsPerSecond,
      burst,
      ...(opts.limiters
        ? { limiter: opts.limiters.bucket(`${apiUrl} requests`, config.requestsPerSecond, burst) }
        : {}),
    });
    this.concurrency = new ConcurrencyLimit(config.maxConcurrentRequests);
    this.tokens = new RenewingToken({
      store: opts.tokenStore(),
      key: zohoTokenKey(tokenUrl, config.clientId, config.refreshToken),
      refresh: zohoRefreshGrant(tokenUrl, config),
      skewMs: config.refreshBeforeExpirySeconds * 1000,
      ...(opts.onTokenRefreshFailed ? { onRefreshFailed: opts.onTokenRefreshFailed } : {}),
      // No access token yet: expired from the start, so the first use refreshes.
      seed: () => ({
        accessToken: '',
        refreshToken: config.refreshToken,
        expiresAt: new Date(0),
        details: {},
      }),
    });
  }

  /**
   * Sends one SDK request; answers its JSON (null for 204), throws a CrmError for a refusal.
   * `perRecord`: a write of several records, whose 400 holding each record's answer is answered.
   */
  async send(
    what: string,
    request: (sdk: ZohoSdk) => Promise<RawResponse>,
    perRecord = false,
  ): Promise<ZohoAnswer> {
    try {
      return await this.gate.run(
        () => this.concurrency.run(() => this.once(what, request, perRecord)),
        zohoRateLimit,
      );
    } catch (err) {
      throw toCrmError(err);
    }
  }

  /**
   * One request, renewing the token once on 401. `perRecord`: a write of several records, whose 400
   * with a `data` array is each record's answer (every one refused), not a refusal of the request.
   */
  private async once(
    what: string,
    request: (sdk: ZohoSdk) => Promise<RawResponse>,
    perRecord: boolean,
  ): Promise<ZohoAnswer> {
    for (let renewed = false; ; renewed = true) {
      const accessToken = await this.tokens.current();
      let answer: ZohoAnswer;
      try {
        answer = await withZohoContext({ apiUrl: this.apiUrl, accessToken }, request);
      } catch (err) {
        const refused = sdkRefusal(err);
        if (!refused) throw err;
        answer = {
          status: refused.status,
          headers: new Map(),
          body: { code: refused.code, message: refused.message },
        };
      }
      if (answer.status === 401 && !renewed) {
        // INVALID_TOKEN: expired or revoked; the next current() renews it (or takes another worker's).
        this.tokens.invalidate(accessToken);
        continue;
      }
      const answered = perRecord && answer.status === 400 && dataOf(answer).length > 0;
      if (answer.status >= 400 && !answered) throw refusal(what, answer);
      return answer;
    }
  }

  /** A Record of the SDK holding `fields`. */
  record(fields: Fields): ZohoRecord {
    const sdk = zohoSdk();
    const rec = new sdk.Record.Record();
    for (const [name, value] of Object.entries(fields)) {
      if (value !== null && typeof value === 'object' && 'id' in value) {
        const ref = new sdk.Record.Record();
        ref.setId(BigInt(value.id));
        if (value.module !== undefined) {
          const module = new sdk.Modules.MinifiedModule();
          module.setAPIName(value.module);
          ref.addKeyValue('module', module);
        }
        rec.addKeyValue(name, ref);
      } else if (value !== null && typeof value === 'object' && 'choice' in value) {
        rec.addKeyValue(name, new sdk.Choice(value.choice));
      } else rec.addKeyValue(name, value);
    }
    return rec;
  }

  /** Inserts one record; answers its id. DUPLICATE_DATA (the unique key field) is a 409. */
  async create(module: string, fields: Fields): Promise<string> {
    const answer = await this.send(`insert into ${module}`, (sdk) => {
      const body = new sdk.Record.BodyWrapper();
      body.setData([this.record(fields)]);
      return new sdk.Record.RecordOperations(module).createRecords(body, new sdk.HeaderMap());
    });
    return recordId(module, answer, 'insert');
  }

  /** Updates one record's fields. */
  async update(module: string, id: string, fields: Fields): Promise<void> {
    const answer = await this.send(`update in ${module}`, (sdk) => {
      const body = new sdk.Record.BodyWrapper();
      body.setData([this.record(fields)]);
      return new sdk.Record.RecordOperations(module).updateRecord(BigInt(id), body, new sdk.HeaderMap());
    });
    recordId(module, answer, 'update');
  }

  /** Deletes one record; one already gone (Zoho: INVALID_DATA for its id) counts as deleted. */
  async delete(module: string, id: string): Promise<void> {
    try {
      await this.send(`delete from ${module}`, (sdk) =>
        new sdk.Record.RecordOperations(module).deleteRecord(
          BigInt(id),
          new sdk.ParameterMap(),
          new sdk.HeaderMap(),
        ),
      ).then((answer) => recordId(module, answer, 'delete'));
    } catch (err) {
      if (err instanceof CrmError && err.code === 'INVALID_DATA') return;
      throw err;
    }
  }

  /** Records of `module` whose phone fields hold these digits (Zoho's search API). */
  async searchPhone(module: string, digits: string): Promise<Record<string, unknown>[]> {
    const answer = await this.send(`search ${module} by phone`, async (sdk) => {
      const params = new sdk.ParameterMap();
      await params.add(sdk.Record.SearchRecordsParam.PHONE, digits);
      await params.add(sdk.Record.SearchRecordsParam.PER_PAGE, 200);
      return new sdk.Record.RecordOperations(module).searchRecords(params, new sdk.HeaderMap());
    });
    return dataOf(answer);
  }

  /** Records of `module` whose e-mail fields hold this address (Zoho's search API). */
  async searchEmail(module: string, address: string): Promise<Record<string, unknown>[]> {
    const answer = await this.send(`search ${module} by e-mail`, async (sdk) => {
      const params = new sdk.ParameterMap();
      await params.add(sdk.Record.SearchRecordsParam.EMAIL, address);
      await params.add(sdk.Record.SearchRecordsParam.PER_PAGE, 200);
      return new sdk.Record.RecordOperations(module).searchRecords(params, new sdk.HeaderMap());
    });
    return dataOf(answer);
  }

  /** A record's notes, page by page (related records API; `fields` is mandatory in v8). */
  async *notesOf(module: string, id: string): AsyncIterable<Record<string, unknown>[]> {
    for (let page = 1; ; page++) {
      const answer = await this.send(`notes of a ${module} record`, async (sdk) => {
        const params = new sdk.ParameterMap();
        await params.add(sdk.RelatedRecords.GetRelatedRecordsParam.FIELDS, 'Note_Title,Note_Content');
        await params.add(sdk.RelatedRecords.GetRelatedRecordsParam.PAGE, page);
        await params.add(sdk.RelatedRecords.GetRelatedRecordsParam.PER_PAGE, 200);
        const ops = new sdk.RelatedRecords.RelatedRecordsOperations('Notes', module);
        return ops.getRelatedRecords(BigInt(id), params, new sdk.HeaderMap());
      });
      yield dataOf(answer);
      const info = (answer.body as { info?: { more_records?: unknown } } | null)?.info;
      if (info?.more_records !== true) return;
    }
  }

  /** The API names of a module's fields (the field metadata API). */
  async fieldNames(module: string): Promise<string[]> {
    const answer = await this.send(`fields of ${module}`, async (sdk) => {
      const params = new sdk.ParameterMap();
      await params.add(sdk.Fields.GetFieldsParam.MODULE, module);
      return new sdk.Fields.FieldsOperations().getFields(params);
    });
    const fields = (answer.body as { fields?: unknown } | null)?.fields;
    return Array.isArray(fields)
      ? fields
          .map((f) => (f as { api_name?: unknown }).api_name)
          .filter((n): n is string => typeof n === 'string')
      : [];
  }

  /**
   * Creates a custom field in `module` (create-custom-field.html); Zoho names it after its label
   * (spaces as underscores). Answers the field's entry (SUCCESS or Zoho's refusal of it).
   */
  async createField(
    module: string,
    spec: { label: string; dataType: 'text' | 'datetime'; length?: number; unique?: boolean },
  ): Promise<Record<string, unknown> | undefined> {
    const answer = await this.send(`create a field in ${module}`, async (sdk) => {
      const field = new sdk.Fields.Fields();
      field.setFieldLabel(spec.label);
      field.setDataType(spec.dataType);
      if (spec.length !== undefined) field.setLength(spec.length);
      if (spec.unique) {
        const unique = new sdk.Fields.Unique();
        unique.setCasesensitive('false');
        await field.setUnique(unique);
      }
      const body = new sdk.Fields.BodyWrapper();
      body.setFields([field]);
      const params = new sdk.ParameterMap();
      await params.add(sdk.Fields.CreateFieldParam.MODULE, module);
      return new sdk.Fields.FieldsOperations().createField(body, params);
    });
    const fields = (answer.body as { fields?: unknown } | null)?.fields;
    return Array.isArray(fields) ? (fields[0] as Record<string, unknown> | undefined) : undefined;
  }

  /** The org's active users, page by page (users API, at most 200 a page). */
  async activeUsers(): Promise<{ id: string; email: string }[]> {
    const users: { id: string; email: string }[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.send('list users', async (sdk) => {
        const params = new sdk.ParameterMap();
        await params.add(sdk.Users.GetUsersParam.TYPE, 'ActiveUsers');
        await params.add(sdk.Users.GetUsersParam.PAGE, page);
        await params.add(sdk.Users.GetUsersParam.PER_PAGE, 200);
        return new sdk.Users.UsersOperations().getUsers(params, new sdk.HeaderMap());
      });
      const body = answer.body as { users?: unknown; info?: { more_records?: unknown } } | null;
      for (const u of Array.isArray(body?.users) ? (body.users as Record<string, unknown>[]) : []) {
        if (typeof u.id === 'string' && typeof u.email === 'string') users.push({ id: u.id, email: u.email });
      }
      if (body?.info?.more_records !== true) return users;
    }
  }

  /** The rows of a COQL query (https://www.zoho.com/crm/developer/docs/api/v8/COQL-Overview.html). */
  async coql(query: string): Promise<Record<string, unknown>[]> {
    const answer = await this.send('COQL query', (sdk) => {
      const body = new sdk.Coql.BodyWrapper();
      body.setSelectQuery(query);
      return new sdk.Coql.CoqlOperations().getRecords(body);
    });
    return dataOf(answer);
  }
}

/** The `data` rows of an answer ([] for 204 No Content). */
export function dataOf(answer: ZohoAnswer): Record<string, unknown>[] {
  const data = (answer.body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? (data as Record<string, unknown>[]) : [];
}

/** The record id of a write's first entry, or the CrmError of its refusal. */
function recordId(module: string, answer: ZohoAnswer, verb: string): string {
  const error = zohoErrorOf(answer.body);
  if (error) {
    const duplicate = error.code === 'DUPLICATE_DATA';
    throw new CrmError({
      destination: DESTINATION,
      status: duplicate ? 409 : 400,
      code: error.code,
      message: `${verb} in ${module} refused: ${error.code} ${error.message ?? ''}`.trim(),
      retryable: false,
    });
  }
  const id = (dataOf(answer)[0]?.details as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' && typeof id !== 'number') {
    throw new CrmError({
      destination: DESTINATION,
      message: `${verb} in ${module}: Zoho answered without a record id`,
      retryable: true,
    });
  }
  return String(id);
}
