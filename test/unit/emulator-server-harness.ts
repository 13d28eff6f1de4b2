// Starts an emulator on a free port for the emulator-server tests, with small fetch helpers.
import { DEFAULT_NOW, startEmulator, type RunningEmulator } from '../../emulator';

/** Untyped JSON, which the tests assert on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A fetch Response whose JSON body is untyped. */
export type JsonResponse = Omit<Response, 'json'> & { json(): Promise<Json> };

/** A started emulator plus request helpers. */
export interface Harness {
  emu: RunningEmulator;
  /** Authorization header value for the admin's API key. */
  adminKey: string;
  /** fetch against the API base URL (v1.1) with the admin's API key unless headers are given. */
  api(path: string, init?: RequestInit & { json?: unknown }): Promise<JsonResponse>;
  /** fetch against /_emulator/ control endpoints, JSON in and out. */
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

/** Basic credentials as the spec builds them. */
export function basic(userId: number | string, secret: string): string {
  return `Basic ${Buffer.from(`${userId}:${secret}`).toString('base64')}`;
}

/** Starts an emulator (seed 7) with a small store. */
export async function startHarness(cdrs = 2000): Promise<Harness> {
  const emu = await startEmulator({ port: 0, seed: 7, cdrs, now: DEFAULT_NOW });
  const adminKey = basic(emu.admin.user_id, emu.admin.api_key);
  return {
    emu,
    adminKey,
    api: (path, init = {}) => {
      const { json, headers, ...rest } = init;
      const h = new Headers(headers ?? { authorization: adminKey });
      if (json !== undefined) h.set('content-type', 'application/json');
      return fetch(`${emu.baseUrl}${path}`, {
        ...rest,
        headers: h,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
    },
    control: async (method, path, body) => {
      const res = await fetch(`${emu.origin}/_emulator${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    close: () => emu.close(),
  };
}

/** Logs in with e-mail and password; returns the token. */
export async function login(
  h: Harness,
  email = h.emu.admin.email,
  password = h.emu.admin.password,
): Promise<string> {
  const res = await h.api('/login', { method: 'POST', json: { email, password }, headers: {} });
  const body = (await res.json()) as { user_token?: string };
  if (res.status !== 200 || !body.user_token) throw new Error(`login failed: ${res.status}`);
  return body.user_token;
}
