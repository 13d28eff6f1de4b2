// The official Zoho CRM SDK (@zohocrm/nodejs-sdk-8.0), set up once per process. The SDK keeps one
// global configuration (environment, token, resource path), so every connector's request runs inside
// an AsyncLocalStorage context naming its own API origin and access token: the token object handed to
// the SDK reads that context when the SDK asks it to authenticate a request, and points the request
// at the connector's origin. The SDK's own token store and refresh are not used: tokens renew through
// callsync's shared store (connectors/crm/renewing-token.ts), one worker at a time.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { ZohoConfig, ZohoDataCentre } from './config';

/** The SDK's pieces callsync uses (the package ships no types). */
interface SdkObject {
  [k: string]: unknown;
}
type Ctor<T = SdkObject> = new (...args: unknown[]) => T;
interface Env {
  getUrl(): string;
  getAccountsUrl(): string;
}
interface DataCentre {
  PRODUCTION(): Env;
  SANDBOX(): Env;
  DEVELOPER(): Env;
}
interface ParamMap {
  add(param: unknown, value: unknown): Promise<void>;
}
/** An SDK answer (APIResponse). */
export interface RawResponse {
  getStatusCode(): number;
  getHeaders(): Map<string, unknown>;
  getResponseJSON(): unknown;
}
/** An SDK Record. */
export interface ZohoRecord {
  addKeyValue(key: string, value: unknown): void;
  setId(id: bigint): void;
}
/** The SDK's InitializeBuilder: each setter answers the builder. */
interface InitializeBuilder {
  environment(e: Env): InitializeBuilder;
  token(t: unknown): InitializeBuilder;
  store(s: unknown): InitializeBuilder;
  SDKConfig(c: unknown): InitializeBuilder;
  logger(l: unknown): InitializeBuilder;
  resourcePath(p: string): InitializeBuilder;
  initialize(): Promise<void>;
}

export interface ZohoSdk {
  DataCenter: { setEnvironment(url: string, accountsUrl: string, fileUploadUrl: string): Env };
  USDataCenter: DataCentre;
  EUDataCenter: DataCentre;
  INDataCenter: DataCentre;
  AUDataCenter: DataCentre;
  JPDataCenter: DataCentre;
  CADataCenter: DataCentre;
  CNDataCenter: DataCentre;
  OAuthBuilder: Ctor<{ accessToken(t: string): { findUser(b: boolean): { build(): SdkObject } } }>;
  SDKConfigBuilder: Ctor<{
    autoRefreshFields(b: boolean): { pickListValidation(b: boolean): { build(): unknown } };
  }>;
  LogBuilder: Ctor<{ level(l: unknown): { build(): unknown } }>;
  Levels: { OFF: unknown };
  /** Its constructor answers a promise of the builder. */
  InitializeBuilder: Ctor<PromiseLike<InitializeBuilder>>;
  TokenStore: { TokenStore: Ctor };
  ParameterMap: Ctor<ParamMap>;
  HeaderMap: Ctor<{ add(header: unknown, value: unknown): Promise<void> }>;
  Choice: Ctor;
  Record: {
    Record: Ctor<ZohoRecord>;
    BodyWrapper: Ctor<{ setData(records: ZohoRecord[]): void }>;
    RecordOperations: Ctor<{
      createRecords(body: unknown, headers: unknown): Promise<RawResponse>;
      updateRecord(id: bigint, body: unknown, headers: unknown): Promise<RawResponse>;
      deleteRecord(id: bigint, params: unknown, headers: unknown): Promise<RawResponse>;
      searchRecords(params: unknown, headers: unknown): Promise<RawResponse>;
      updateRecords(body: unknown, headers: unknown): Promise<RawResponse>;
      deleteRecords(params: unknown, headers: unknown): Promise<RawResponse>;
      getDeletedRecords(params: unknown, headers: unknown): Promise<RawResponse>;
    }>;
    SearchRecordsParam: { PHONE: unknown; EMAIL: unknown; PER_PAGE: unknown; PAGE: unknown };
    DeleteRecordsParam: { IDS: unknown };
    GetDeletedRecordsParam: { TYPE: unknown; PAGE: unknown; PER_PAGE: unknown };
    GetDeletedRecordsHeader: { IF_MODIFIED_SINCE: unknown };
  };
  Coql: {
    BodyWrapper: Ctor<{ setSelectQuery(q: string): void }>;
    CoqlOperations: Ctor<{ getRecords(body: unknown): Promise<RawResponse> }>;
  };
  Modules: { MinifiedModule: Ctor<{ setAPIName(name: string): void }> };
  RelatedRecords: {
    RelatedRecordsOperations: Ctor<{
      getRelatedRecords(id: bigint, params: unknown, headers: unknown): Promise<RawResponse>;
    }>;
    GetRelatedRecordsParam: { FIELDS: unknown; PAGE: unknown; PER_PAGE: unknown };
  };
  Fields: {
    FieldsOperations: Ctor<{
      getFields(params: unknown): Promise<RawResponse>;
      createField(body: unknown, params: unknown): Promise<RawResponse>;
    }>;
    GetFieldsParam: { MODULE: unknown };
    CreateFieldParam: { MODULE: unknown };
    Fields: Ctor<{
      setFieldLabel(label: string): void;
      setDataType(type: string): void;
      setLength(length: number): void;
      setUnique(unique: unknown): Promise<void>;
    }>;
    Unique: Ctor<{ setCasesensitive(value: string): void }>;
    BodyWrapper: Ctor<{ setFields(fields: unknown[]): void }>;
  };
  Users: {
    UsersOperations: Ctor<{ getUsers(params: unknown, headers: unknown): Promise<RawResponse> }>;
    GetUsersParam: { TYPE: unknown; PAGE: unknown; PER_PAGE: unknown };
  };
}

/** A variable, not a literal: the package ships no type declarations. */
const ZOHO_SDK = '@zohocrm/nodejs-sdk-8.0';
let loaded: Promise<ZohoSdk> | undefined;
let sdkModule: ZohoSdk | undefined;

/**
 * The SDK, loaded on first need by import(): it is an ES module that checks what it is given with
 * `instanceof` against classes it loads by import() itself, so it must be loaded the same way (a
 * require() through a TypeScript loader such as tsx gives another copy of its classes, and every
 * request fails "EXPECTED TYPE: BodyWrapper").
 */
async function loadZohoSdk(): Promise<ZohoSdk> {
  loaded ??= import(ZOHO_SDK).then((m: unknown) => {
    sdkModule = ((m as { default?: ZohoSdk }).default ?? m) as ZohoSdk;
    return sdkModule;
  });
  return loaded;
}

/** The SDK, once a request has loaded it (every request awaits initialize() first). */
export function zohoSdk(): ZohoSdk {
  if (!sdkModule) throw new Error('the Zoho SDK is used before its first request loaded it');
  return sdkModule;
}

/** Where one connector's requests go and with which token. */
export interface RequestContext {
  /** API origin, e.g. https://www.zohoapis.eu. */
  apiUrl: string;
  /** Zoho-oauthtoken for this request. */
  accessToken: string;
}

const context = new AsyncLocalStorage<RequestContext>();
let initialized: Promise<string> | undefined;

/**
 * Each data centre's API and accounts domains (https://www.zoho.com/crm/developer/docs/api/v8/multi-dc.html),
 * as the SDK's USDataCenter … CNDataCenter have them; sandbox and developer environments have API
 * hosts of their own.
 */
const DATA_CENTRES: Record<ZohoDataCentre, { api: string; accounts: string }> = {
  us: { api: 'zohoapis.com', accounts: 'accounts.zoho.com' },
  eu: { api: 'zohoapis.eu', accounts: 'accounts.zoho.eu' },
  in: { api: 'zohoapis.in', accounts: 'accounts.zoho.in' },
  au: { api: 'zohoapis.com.au', accounts: 'accounts.zoho.com.au' },
  jp: { api: 'zohoapis.jp', accounts: 'accounts.zoho.jp' },
  ca: { api: 'zohoapis.ca', accounts: 'accounts.zohocloud.ca' },
  cn: { api: 'zohoapis.com.cn', accounts: 'accounts.zoho.com.cn' },
};

function environmentOf(config: Pick<ZohoConfig, 'dataCentre' | 'environment'>): Env {
  const dc = DATA_CENTRES[config.dataCentre];
  const host =
    config.environment === 'sandbox'
      ? `sandbox.${dc.api}`
      : config.environment === 'developer'
        ? `developer.${dc.api}`
        : `www.${dc.api}`;
  return {
    getUrl: () => `https://${host}`,
    getAccountsUrl: () => `https://${dc.accounts}/oauth/v2/token`,
  };
}

/** The API origin and the token endpoint of a config: its data centre's, or the configured overrides. */
export function zohoEndpoints(config: ZohoConfig): { apiUrl: string; tokenUrl: string } {
  if (config.apiUrl && config.accountsUrl) {
    return {
      apiUrl: config.apiUrl.replace(/\/$/, ''),
      tokenUrl: `${config.accountsUrl.replace(/\/$/, '')}/oauth/v2/token`,
    };
  }
  const env = environmentOf(config);
  return { apiUrl: env.getUrl(), tokenUrl: env.getAccountsUrl() };
}

/** Initialises the SDK once per process; answers the origin it was initialised with. */
function initialize(apiUrl: string): Promise<string> {
  initialized ??= (async () => {
    const sdk = await loadZohoSdk();
    // Never the SDK's file store or refresh: authenticate() reads the current request's context.
    const token = new sdk.OAuthBuilder().accessToken('callsync-context-token').findUser(false).build();
    token.authenticate = (connector: { url: string; addHeader(k: string, v: string): void }) => {
      const ctx = context.getStore();
      if (!ctx) throw new Error('a Zoho SDK request outside a callsync request context');
      const url = new URL(connector.url);
      connector.url = `${ctx.apiUrl}${url.pathname}${url.search}`;
      connector.addHeader('Authorization', `Zoho-oauthtoken ${ctx.accessToken}`);
      return Promise.resolve();
    };
    // No store either: without one the SDK writes its token to sdk_tokens.txt in the working directory.
    class NoTokenStore extends sdk.TokenStore.TokenStore {
      findToken = () => Promise.resolve(null);
      findTokenById = () => Promise.resolve(null);
      saveToken = () => Promise.resolve();
      deleteToken = () => Promise.resolve();
      getTokens = () => Promise.resolve([]);
      deleteTokens = () => Promise.resolve();
    }
    const config = new sdk.SDKConfigBuilder().autoRefreshFields(false).pickListValidation(false).build();
    // Off: the SDK's log lines carry request URLs (phone numbers in searches).
    const logger = new sdk.LogBuilder().level(sdk.Levels.OFF).build();
    // Field metadata the SDK caches per module, in a directory of this process's own.
    // The trailing separator: the SDK appends "resources/…" to it without one for related lists.
    const resources = `${mkdtempSync(join(tmpdir(), 'callsync-zoho-sdk-'))}${sep}`;
    const env = sdk.DataCenter.setEnvironment(apiUrl, `${apiUrl}/oauth/v2/token`, apiUrl);
    const builder = await new sdk.InitializeBuilder();
    await builder
      .environment(env)
      .token(token)
      .store(new NoTokenStore())
      .SDKConfig(config)
      .logger(logger)
      .resourcePath(resources)
      .initialize();
    return apiUrl;
  })().catch((err: unknown) => {
    initialized = undefined;
    throw err;
  });
  return initialized;
}

/** The answer of one SDK request: its status, headers and body as JSON (null when empty). */
export interface ZohoAnswer {
  status: number;
  headers: Map<string, unknown>;
  body: unknown;
}

/** Runs one SDK request as `ctx` (its origin and token). */
export async function withZohoContext(
  ctx: RequestContext,
  send: (sdk: ZohoSdk) => Promise<RawResponse>,
): Promise<ZohoAnswer> {
  await initialize(ctx.apiUrl);
  const res = await context.run(ctx, () => send(zohoSdk()));
  return { status: res.getStatusCode(), headers: res.getHeaders(), body: res.getResponseJSON() ?? null };
}
