// One webhook POST: JSON body, no signature (the platform signs nothing). Basic credentials written in
// the URL are sent as an Authorization header, as an HTTP client does with such a URL.

/** The outcome of one POST: the status, or the network error / timeout. */
export interface PostResult {
  status: number | null;
  error: string | null;
  ms: number;
}

/** Splits `scheme://user:pass@host/…` into the URL without credentials and its Basic header. */
export function withoutCredentials(raw: string): { url: string; authorization?: string } {
  const url = new URL(raw);
  if (url.username === '' && url.password === '') return { url: raw };
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return { url: url.toString(), authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` };
}

/** POSTs a JSON body; never throws (errors and timeouts are results). */
export async function postJson(rawUrl: string, body: unknown, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  try {
    const { url, authorization } = withoutCredentials(rawUrl);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'callsync-emulator-webhooks/1.0',
    };
    if (authorization !== undefined) headers.authorization = authorization;
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Drain the body so the connection goes back to the pool.
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status, error: null, ms: performance.now() - started };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const reason =
      e.name === 'TimeoutError'
        ? `timeout after ${timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { status: null, error: reason, ms: performance.now() - started };
  }
}
