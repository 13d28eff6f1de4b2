// The HubSpot test server's stored objects and the state the server shares with its route files.
// It imports no other file of the test server: every file shares its types from here.

export type ObjectType = 'calls' | 'tasks' | 'contacts';

export interface FakeObject {
  id: string;
  type: ObjectType;
  properties: Record<string, string | null>;
  associations: { toId: string; category: string; typeId: number }[];
  createdAt: string;
  updatedAt: string;
}

/** The limits the server enforces (hubspot-limits.ts has a Professional private app's). */
export interface HubSpotLimits {
  /** Requests per rolling 10 seconds, all endpoints together (Professional private app: 190). */
  per10Seconds: number;
  /** Search requests per second (CRM search API: 5 per account, whatever the token). */
  searchPerSecond: number;
  /** Inputs per batch request (100). */
  batchInputs: number;
  /** Requests per day, the account's (private apps: 250,000 to 1,000,000 by tier; Professional: 650,000). */
  daily: number;
}

/** The search index as the route files use it (hubspot-search-index.ts: writes seen after a lag). */
export interface SearchView {
  lagMs: number;
  wrote(obj: FakeObject, lagMs?: number, now?: number): void;
  visible(type: ObjectType, stored: Iterable<FakeObject>, now?: number): FakeObject[];
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
  index: SearchView;
  limits: HubSpotLimits;
  /** The next record id. */
  newId: () => string;
  /** Refuses the request (403 MISSING_SCOPES) when the app lacks `scope`. */
  requireScope: (scope: string) => void;
}
