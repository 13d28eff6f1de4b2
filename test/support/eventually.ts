/**
 * Polls `read` until it returns a value. On timeout the error says what was awaited and, when
 * `explain` is given, what it reports of the state then (e.g. a workflow's last history events), so
 * a failure in CI can be understood without rerunning it.
 */
export async function eventually<T>(
  read: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
  explain?: () => Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const why = explain ? await explain().catch((err: unknown) => `(explain failed: ${String(err)})`) : '';
      throw new Error(`timed out waiting for ${what}${why ? `\n${why}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
