// A local Microsoft Dynamics 365 (Dataverse) for tests, over https (MSAL accepts https authorities
// only; dynamics-tls.ts): Microsoft Entra's token endpoint for the client credentials grant
// (dynamics-entra.ts) and the Dataverse Web API requests callsync's Dynamics connector makes
// (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/overview): WhoAmI; query
// of contacts, phonecalls, tasks and systemusers with $select, $filter (dynamics-odata.ts), $orderby,
// $top and the odata.maxpagesize preference (at most 5,000 rows a page, @odata.nextLink beyond:
// https://learn.microsoft.com/power-apps/developer/data-platform/webapi/query/page-results); create
// (POST: 204 with OData-EntityId, or 201 with the record for Prefer: return=representation:
// https://learn.microsoft.com/power-apps/developer/data-platform/webapi/create-entity-web-api);
// update (PATCH with If-Match: * updates, 404 when the record is gone; without it, an upsert:
// https://learn.microsoft.com/power-apps/developer/data-platform/webapi/update-delete-entities-using-web-api)
// and delete; $batch of such operations (dynamics-batch.ts); column definitions read and created (dynamics-metadata.ts). Writes are checked as dynamics-records.ts says. Errors have the Web API's shape
// { error: { code, message } } (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/compose-http-requests-handle-errors).
//
// Every Web API request needs a bearer token the token endpoint issued for this environment, not
// expired (401 with WWW-Authenticate otherwise:
// https://learn.microsoft.com/power-apps/developer/data-platform/authenticate-oauth), whose app is an
// application user of the environment (403 0x80072560 otherwise), and passes the service protection
// limits of dynamics-limits.ts (429 with Retry-After).
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { FakeEntra } from './dynamics-entra';
import { ServiceProtection } from './dynamics-limits';
import { parseFilter, ODataSyntaxError, type Row } from './dynamics-odata';
import { Readable } from 'node:stream';
import {
  batchResponse,
  parseBatch,
  runBatch,
  type BatchOperation,
  type OperationAnswer,
} from './dynamics-batch';
import { ColumnDefinitions } from './dynamics-metadata';
import { DataverseTables, WebApiFault, type StoredRow } from './dynamics-records';
import { TEST_CERT, TEST_KEY } from './dynamics-tls';

export const API_PATH = '/api/data/v9.2/';
/** Rows one page holds at most (Dataverse's maximum page size). */
export const MAX_PAGE = 5000;

export interface FakeDynamics {
  /** The environment URL (also the authority host: one origin serves both). */
  url: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  entra: FakeEntra;
  limits: ServiceProtection;
  tables: DataverseTables;
  /** Web API requests answered, by method and path (no query), with their status. */
  requests: { method: string; path: string; status: number }[];
  /** Operations carried out, alone or as a part of a $batch (dynamics-batch.ts), with their status. */
  operations: { method: string; path: string; status: number; inBatch: boolean }[];
  /** A contact as an agent would have entered it; returns its id. */
  seedContact(fields: Record<string, unknown>, modifiedon?: string): string;
  /** An enabled Dataverse user; returns its systemuserid. */
  seedUser(email: string, fullname: string): string;
  rows(set: string): StoredRow[];
  /** The next create in `set` (matching `when`) is carried out and its answer lost: the socket is destroyed. */
  loseNextCreate(set: string, when?: (row: StoredRow) => boolean): void;
  close(): Promise<void>;
}

function send(
  res: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'Content-Type': 'application/json; odata.metadata=minimal' }),
    'OData-Version': '4.0',
    ...headers,
  });
  res.end(text);
}

const fault = (res: ServerResponse, f: WebApiFault, headers: Record<string, string> = {}) =>
  send(res, f.status, { error: { code: f.code, message: f.message } }, headers);

/** A thrown error as the Web API answers it. */
function failed(res: ServerResponse, err: unknown): void {
  if (err instanceof WebApiFault) return fault(res, err);
  if (err instanceof SyntaxError)
    return fault(res, new WebApiFault(400, '0x0', 'Invalid JSON in the request body.'));
  fault(res, new WebApiFault(500, '0x80040216', err instanceof Error ? err.message : String(err)));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeDynamics(): Promise<FakeDynamics> {
  const settings = { tenantId: randomUUID(), clientId: randomUUID(), clientSecret: randomUUID() };
  const entra = new FakeEntra(settings);
  const limits = new ServiceProtection();
  const tables = new DataverseTables();
  const definitions = new ColumnDefinitions(tables);
  const requests: FakeDynamics['requests'] = [];
  const operations: FakeDynamics['operations'] = [];
  const losing: { set: string; when: (row: StoredRow) => boolean }[] = [];
  let url = '';

  const appUser = randomUUID();
  tables.rows.get('systemusers')!.set(appUser, {
    __id: appUser,
    systemuserid: appUser,
    fullname: '# callsync',
    internalemailaddress: `${settings.clientId}@example.invalid`,
    isdisabled: false,
    applicationid: settings.clientId,
  });

  const query = (set: string, params: URLSearchParams, prefer: string, res: ServerResponse) => {
    const t = tables.table(set);
    const columns = new Set([...Object.keys(t.columns)]);
    const select = params.get('$select')?.split(',') ?? null;
    for (const c of select ?? [])
      if (!columns.has(c))
        throw new WebApiFault(
          400,
          '0x0',
          `Could not find a property named '${c}' on type 'Microsoft.Dynamics.CRM.${t.logical}'.`,
        );
    let rows: Row[] = [...tables.rows.get(set)!.values()];
    const filter = params.get('$filter');
    if (filter) {
      try {
        const predicate = parseFilter(filter, columns);
        rows = rows.filter(predicate);
      } catch (err) {
        if (err instanceof ODataSyntaxError)
          throw new WebApiFault(400, '0x80060888', `Syntax error: ${err.message}`);
        throw err;
      }
    }
    for (const term of (params.get('$orderby')?.split(',') ?? []).reverse()) {
      const [col, dir] = term.trim().split(/\s+/);
      if (!columns.has(col!)) throw new WebApiFault(400, '0x0', `Could not find a property named '${col}'.`);
      const sign = dir === 'desc' ? -1 : 1;
      rows = [...rows].sort((a, b) =>
        String(a[col!]) < String(b[col!]) ? -sign : String(a[col!]) > String(b[col!]) ? sign : 0,
      );
    }
    const top = params.get('$top');
    if (top !== null) rows = rows.slice(0, Number(top));
    const asked = /odata\.maxpagesize=(\d+)/.exec(prefer);
    const pageSize = Math.min(MAX_PAGE, asked ? Number(asked[1]) : MAX_PAGE);
    const skip = Number(params.get('$skiptoken') ?? 0);
    const page = rows.slice(skip, skip + pageSize);
    const body: Row = {
      '@odata.context': `${url}${API_PATH}$metadata#${set}`,
      value: page.map((r) => DataverseTables.view(r, select)),
    };
    if (skip + pageSize < rows.length) {
      const next = new URLSearchParams(params);
      next.set('$skiptoken', String(skip + pageSize));
      body['@odata.nextLink'] = `${url}${API_PATH}${set}?${next.toString()}`;
    }
    send(res, 200, body, asked ? { 'Preference-Applied': `odata.maxpagesize=${pageSize}` } : {});
  };

  const webApi = async (req: IncomingMessage, res: ServerResponse, path: string, params: URLSearchParams) => {
    const method = req.method ?? 'GET';
    const prefer = String(req.headers.prefer ?? '');
    if (/^WhoAmI(\(\))?$/.test(path) && method === 'GET') {
      return send(res, 200, {
        BusinessUnitId: randomUUID(),
        UserId: appUser,
        OrganizationId: settings.tenantId,
      });
    }
    if (path === '$batch' && method === 'POST') return batch(req, res, prefer);
    if (path.startsWith('EntityDefinitions')) {
      const text = method === 'POST' ? await readBody(req) : '';
      const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      const answer = definitions.handle(method, path, body, `${url}${API_PATH}`);
      if (answer) return send(res, answer.status, answer.body, answer.headers);
    }
    const m = /^(\w+)(?:\(([0-9a-fA-F-]{36})\))?$/.exec(path);
    if (!m) throw new WebApiFault(404, '0x8006088a', `Resource not found for the segment '${path}'.`);
    const [, set, id] = m as unknown as [string, string, string | undefined];
    const select = params.get('$select')?.split(',') ?? null;
    if (method === 'GET')
      return id === undefined
        ? query(set, params, prefer, res)
        : send(res, 200, DataverseTables.view(tables.get(set, id), select));
    const text = method === 'DELETE' ? '' : await readBody(req);
    const body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    if (method === 'DELETE' && id !== undefined) {
      tables.delete(set, id);
      return send(res, 204);
    }
    let row: StoredRow;
    if (method === 'POST' && id === undefined) row = tables.create(set, body, appUser);
    else if (method === 'PATCH' && id !== undefined) {
      const exists = tables.rows.get(tables.table(set).set)!.has(id.toLowerCase());
      if (req.headers['if-match'] === '*' || exists) row = tables.update(set, id, body);
      else row = tables.create(set, body, appUser); // upsert without If-Match creates
    } else throw new WebApiFault(405, '0x80060888', `The HTTP method ${method} is not allowed here.`);
    const lose = method === 'POST' ? losing.findIndex((l) => l.set === set && l.when(row)) : -1;
    if (lose >= 0) {
      losing.splice(lose, 1);
      res.socket?.destroy();
      return;
    }
    const entityId = `${url}${API_PATH}${set}(${row.__id as string})`;
    if (/return=representation/.test(prefer))
      return send(res, method === 'POST' ? 201 : 200, DataverseTables.view(row, select), {
        'OData-EntityId': entityId,
        'Preference-Applied': 'return=representation',
      });
    send(res, 204, undefined, { 'OData-EntityId': entityId });
  };

  /** Runs one operation of a batch as if it came alone, and keeps its answer. */
  const runPart = async (op: BatchOperation, lose: () => void): Promise<OperationAnswer> => {
    const answer: OperationAnswer = { status: 0, headers: {}, body: '' };
    const u = new URL(op.url, url);
    const path = u.pathname.slice(API_PATH.length);
    const partReq = Object.assign(Readable.from(op.body === '' ? [] : [Buffer.from(op.body)]), {
      method: op.method,
      headers: op.headers,
    }) as unknown as IncomingMessage;
    const partRes = {
      socket: { destroy: lose },
      writeHead(status: number, headers: Record<string, string>) {
        answer.status = status;
        answer.headers = headers;
      },
      end(text: string) {
        answer.body = text;
      },
    } as unknown as ServerResponse;
    if (!u.pathname.startsWith(API_PATH))
      fault(partRes, new WebApiFault(404, '0x8006088a', 'Not a Web API URL.'));
    else {
      try {
        await webApi(partReq, partRes, path, u.searchParams);
      } catch (err) {
        failed(partRes, err);
      }
    }
    operations.push({ method: op.method, path, status: answer.status, inBatch: true });
    return answer;
  };

  const batch = async (req: IncomingMessage, res: ServerResponse, prefer: string) => {
    const ops = parseBatch(String(req.headers['content-type'] ?? ''), await readBody(req));
    let lost = false;
    const answers = await runBatch(ops, /odata\.continue-on-error/.test(prefer), (op) =>
      runPart(op, () => (lost = true)),
    );
    // A create of the batch was told to lose its answer: the whole batch's answer is lost.
    if (lost) return void res.socket?.destroy();
    const answer = batchResponse(answers, `batchresponse_${randomUUID()}`);
    res.writeHead(200, { 'Content-Type': answer.contentType, 'OData-Version': '4.0' });
    res.end(answer.body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', url);
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(u.pathname);
    if (token && req.method === 'POST') {
      const answer = entra.token(token[1]!, new URLSearchParams(await readBody(req)));
      return send(res, answer.status, answer.body, { 'Cache-Control': 'no-store' });
    }
    if (!u.pathname.startsWith(API_PATH)) return send(res, 404);
    const auth = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
    const grant = auth ? entra.check(auth[1]!, url) : 'invalid';
    if (typeof grant === 'string') {
      const challenge = `Bearer authorization_uri=${url}/${settings.tenantId}/oauth2/authorize, resource_id=${url}/`;
      const detail =
        grant === 'expired' ? ', error="invalid_token", error_description="The access token is expired"' : '';
      return send(res, 401, undefined, { 'WWW-Authenticate': challenge + detail });
    }
    const user = [...tables.rows.get('systemusers')!.values()].find(
      (r) => r.applicationid === grant.clientId,
    );
    if (!user)
      return fault(res, new WebApiFault(403, '0x80072560', 'The user is not a member of the organization.'));
    const admitted = limits.admit(grant.clientId);
    if (!('done' in admitted))
      return fault(res, new WebApiFault(429, admitted.code, admitted.message), {
        'Retry-After': String(admitted.retryAfterSeconds),
      });
    res.on('close', admitted.done);
    const path = u.pathname.slice(API_PATH.length);
    res.on('finish', () => {
      requests.push({ method: req.method ?? 'GET', path, status: res.statusCode });
      if (path !== '$batch')
        operations.push({ method: req.method ?? 'GET', path, status: res.statusCode, inBatch: false });
    });
    try {
      await webApi(req, res, path, u.searchParams);
    } catch (err) {
      failed(res, err);
    }
  };

  const server = https.createServer({ key: TEST_KEY, cert: TEST_CERT }, (req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    ...settings,
    entra,
    limits,
    tables,
    requests,
    operations,
    seedContact: (fields, modifiedon) => {
      const row = tables.create('contacts', fields);
      if (modifiedon) row.modifiedon = modifiedon;
      return row.__id as string;
    },
    seedUser: (email, fullname) => {
      const id = randomUUID();
      tables.rows
        .get('systemusers')!
        .set(id, { __id: id, systemuserid: id, internalemailaddress: email, fullname, isdisabled: false });
      return id;
    },
    rows: (set) => [...tables.rows.get(set)!.values()],
    loseNextCreate: (set, when = () => true) => losing.push({ set, when }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
