// The emulator's control API (/_emulator/…) as tests drive it: a JSON request whose answer is
// returned, or an error naming the request and the emulator's answer.
export type EmulatorControl = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<Record<string, unknown>>;

/** Control requests to the emulator at `origin` (read when called, so it may be set later). */
export function emulatorControl(origin: () => string): EmulatorControl {
  return async (method, path, body) => {
    const res = await fetch(`${origin()}/_emulator${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json: unknown = await res.json().catch(() => null);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as Record<string, unknown>;
  };
}
