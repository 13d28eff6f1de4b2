// The CDR that describes a call: several legs can share a live id; the one with talk time (or the
// latest) is the call's, for its CRM log and for what the CRM writes back.
import { filter, type Cdr, type PlatformClient } from '../connectors/platform';

/** The call's CDR, or null while the platform has none for it. */
export async function findCallCdr(platform: PlatformClient, callId: number): Promise<Cdr | null> {
  const page = await platform.history.cdrs
    .list({ filter: filter<Cdr>().eq('live_id', callId), limit: 10 })
    .readPage(1);
  return [...page.data].sort((a, b) => (b.billsec ?? 0) - (a.billsec ?? 0) || b.id - a.id)[0] ?? null;
}
