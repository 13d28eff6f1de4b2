// HubSpot call outcomes for the write-back to CDRs: callsync's calls (those with callsync_key) whose
// hs_call_disposition is set, found by search on hs_lastmodifieddate (200 a page, 10,000 a query);
// each disposition's label from the portal's dispositions (GET /calling/v1/dispositions), or
// HubSpot's defaults when that endpoint is not readable; the call's owner from the owners API.
import type { Client } from '@hubspot/api-client';
import type { CallLog } from '../crm/crm-connector';
import type { CrmOutcome, CrmOutcomeSource } from '../crm/outcomes';
import { CrmError } from '../crm/errors';
import { rereadMargin, searchModifiedSince } from './modified-search';
import { CALL_OUTCOMES, KEY_PROPERTY, ownDisposition } from './properties';

const READ = [KEY_PROPERTY, 'hs_call_disposition', 'hs_lastmodifieddate', 'hubspot_owner_id'];

/** HubSpot's default call outcomes and their labels (used when the portal's list is not readable). */
export const DEFAULT_DISPOSITION_LABELS: Readonly<Record<string, string>> = {
  [CALL_OUTCOMES.busy]: 'Busy',
  [CALL_OUTCOMES.connected]: 'Connected',
  'a4c4c377-d246-4b32-a13b-75a56a4cd0ff': 'Left live message',
  [CALL_OUTCOMES.leftVoicemail]: 'Left voicemail',
  [CALL_OUTCOMES.noAnswer]: 'No answer',
  '17b47fee-58de-441e-a44c-c6300d46f273': 'Wrong number',
};

/** How the source sends requests: through the connector's general gate, or its search gate too. */
export interface HubSpotOutcomeTransport {
  client: Client;
  call<T>(send: () => Promise<T>): Promise<T>;
  search<T>(send: () => Promise<T>): Promise<T>;
  /** How long HubSpot's search may take to see a write (HubSpotConfig.searchLagSeconds). */
  searchLagMs: number;
}

interface Disposition {
  id?: unknown;
  label?: unknown;
}

export class HubSpotOutcomes implements CrmOutcomeSource {
  readonly displayName = 'HubSpot';
  private labels: Promise<Map<string, string>> | undefined;
  private readonly owners = new Map<string, Promise<string | null>>();

  /** How far behind its cursor each read starts: well past the search lag. */
  private readonly rereadMs: number;

  constructor(private readonly t: HubSpotOutcomeTransport) {
    this.rereadMs = rereadMargin(t.searchLagMs);
  }

  ownValue(status: CallLog['status']): string | null {
    return ownDisposition(status);
  }

  async *changedSince(since: string | null): AsyncIterable<CrmOutcome[]> {
    // Past 10,000 results a new query starts at the last modification seen (those calls come again;
    // the caller skips outcomes it already has). HubSpot's search sees writes only after a few
    // moments, and not necessarily in their order (https://developers.hubspot.com/docs/api/crm/search):
    // a call modified just before the latest one seen may reach search after it. So each read starts
    // a margin behind the cursor; what comes again is an outcome the caller has and skips.
    const { searchApi } = this.t.client.crm.objects.calls;
    const pages = searchModifiedSince({
      what: 'calls',
      property: 'hs_lastmodifieddate',
      from: since === null ? 0 : Math.max(0, Date.parse(since) - this.rereadMs),
      filters: [
        { propertyName: KEY_PROPERTY, operator: 'HAS_PROPERTY' },
        { propertyName: 'hs_call_disposition', operator: 'HAS_PROPERTY' },
      ],
      properties: READ,
      search: (request) =>
        this.t.search(() => searchApi.doSearch(request as Parameters<typeof searchApi.doSearch>[0])),
    });
    for await (const page of pages) {
      const outcomes: CrmOutcome[] = [];
      for (const r of page) {
        const o = await this.outcome(r);
        if (o) outcomes.push(o);
      }
      yield outcomes;
    }
  }

  private async outcome(r: {
    id: string;
    properties: Record<string, string | null>;
    updatedAt?: Date | string;
  }): Promise<CrmOutcome | null> {
    const key = r.properties[KEY_PROPERTY];
    const value = r.properties.hs_call_disposition;
    const modified = r.properties.hs_lastmodifieddate ?? r.updatedAt ?? null;
    if (!key || !value || modified === null) return null;
    const owner = r.properties.hubspot_owner_id;
    return {
      key,
      crmId: r.id,
      value,
      label: (await this.dispositionLabels()).get(value) ?? value,
      modifiedAt: new Date(modified).toISOString(),
      by: owner ? await this.ownerName(owner) : null,
    };
  }

  /** The portal's dispositions (custom ones included), read once; HubSpot's defaults without the scope. */
  private dispositionLabels(): Promise<Map<string, string>> {
    this.labels ??= this.t
      .call(async () => {
        const res = await this.t.client.apiRequest({ method: 'GET', path: '/calling/v1/dispositions' });
        const body = await res.json();
        if (!Array.isArray(body)) throw new Error('dispositions: expected a list');
        return body as Disposition[];
      })
      .then((list) => {
        const map = new Map(Object.entries(DEFAULT_DISPOSITION_LABELS));
        for (const d of list)
          if (typeof d.id === 'string' && typeof d.label === 'string') map.set(d.id, d.label);
        return map;
      })
      .catch((err: unknown) => {
        if (err instanceof CrmError && (err.status === 403 || err.status === 404))
          return new Map(Object.entries(DEFAULT_DISPOSITION_LABELS));
        this.labels = undefined;
        throw err;
      });
    return this.labels;
  }

  /** The owner's name (or e-mail) by owner id; null when the owners API does not know or allow it. */
  private ownerName(ownerId: string): Promise<string | null> {
    let pending = this.owners.get(ownerId);
    if (!pending) {
      pending = this.t
        .call(() => this.t.client.crm.owners.ownersApi.getById(Number(ownerId), 'id', false))
        .then((o) => [o.firstName, o.lastName].filter(Boolean).join(' ') || o.email || null)
        .catch((err: unknown) => {
          if (err instanceof CrmError && (err.status === 403 || err.status === 404)) return null;
          this.owners.delete(ownerId);
          throw err;
        });
      this.owners.set(ownerId, pending);
    }
    return pending;
  }
}
