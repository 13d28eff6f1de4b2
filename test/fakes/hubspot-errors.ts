// The HubSpot test server's errors: HubSpotError, answered in HubSpot's error format by the server's
// error handler (hubspot-server.ts), and the small helpers its route files share.

export const fail = (status: number, category: string, message: string): Error =>
  new HubSpotError(status, category, message);

export class HubSpotError extends Error {
  constructor(
    readonly status: number,
    readonly category: string,
    message: string,
    readonly errors: unknown[] = [],
  ) {
    super(message);
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
