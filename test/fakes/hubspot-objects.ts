// The HubSpot test server's stored objects and the state the server shares with its route files.
import type { SearchIndex } from './hubspot-search-index';
import type { HubSpotLimits } from './hubspot-server';

export type ObjectType = 'calls' | 'tasks' | 'contacts';

export interface FakeObject {
  id: string;
  type: ObjectType;
  properties: Record<string, string | null>;
  associations: { toId: string; category: string; typeId: number }[];
  createdAt: string;
  updatedAt: string;
}

/** What the server shares with its route files (hubspot-records.ts, hubspot-properties.ts, hubspot-search.ts). */
export interface HubSpotState {
  store: Map<ObjectType, Map<string, FakeObject>>;
  /** Custom properties defined on each object type. */
  custom: Map<ObjectType, Set<string>>;
  /** Custom properties whose values must be unique per object type (hasUniqueValue). */
  unique: Map<ObjectType, Set<string>>;
  groups: Map<string, Set<string>>;
  owners: { id: string; email: string }[];
  index: SearchIndex;
  limits: HubSpotLimits;
  /** The next record id. */
  newId: () => string;
  /** Refuses the request (403 MISSING_SCOPES) when the app lacks `scope`. */
  requireScope: (scope: string) => void;
}
