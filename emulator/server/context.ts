// The emulator's mutable state shared by every route: the store (replaced by a reseed), sessions, pending
// e-mail codes, faults, request counts, the API's listing settings and the readiness of audio.
import type { Logger } from '../../lib/logger';
import { AudioReadiness } from '../simulator/audio-readiness';
import type { Account, CreateStoreOptions, EmulatorClock, EmulatorStore, Table, TableName } from '../store';
import { DEFAULT_API_SETTINGS, type ApiSettings } from './api-settings';
import { PendingCodes } from './auth/pending-codes';
import { ApiTokens } from './auth/api-tokens';
import { SessionRegistry } from './auth/sessions';
import { FaultRegistry } from './faults';
import { RequestStats } from './stats';

/** How the current store was built. */
export interface SeedInfo {
  seed: number;
  cdrs: number;
  /** The clock's fixed start (the seeded history's end); absent, the clock follows real time. */
  now?: Date;
}

/** Store options of a seeding: a fixed clock at `now`, or history ending at the current time and a real-time clock. */
export function storeOptions(seeded: SeedInfo): CreateStoreOptions {
  return seeded.now !== undefined
    ? { seed: seeded.seed, cdrs: seeded.cdrs, now: seeded.now }
    : { seed: seeded.seed, cdrs: seeded.cdrs, realTime: true };
}

/** Called with the new store after /_emulator/seed replaced the old one. */
export type StoreReplacedListener = (store: EmulatorStore) => void;

/** State of one running emulator. */
export class EmulatorContext {
  readonly sessions = new SessionRegistry(() => this.clock);
  readonly codes = new PendingCodes(() => this.clock);
  readonly stats = new RequestStats();
  readonly faults: FaultRegistry;
  /** How collections are ordered and capped (POST /_emulator/api); kept across reseeds. */
  api: ApiSettings = { ...DEFAULT_API_SETTINGS };
  /** When the audio of each recording and voice message is ready (the simulator's late audio). */
  readonly audio = new AudioReadiness();
  /** Named API tokens minted through /apitokens (beyond the spec); replaced with the store. */
  apiTokens = this.newApiTokens();
  private current: EmulatorStore;
  private readonly listeners = new Set<StoreReplacedListener>();

  constructor(
    store: EmulatorStore,
    private seedInfo: SeedInfo,
    readonly logger: Logger,
  ) {
    this.current = store;
    this.faults = new FaultRegistry(seedInfo.seed);
  }

  /** Seed and CDR count of the current store. */
  get seeded(): SeedInfo {
    return { ...this.seedInfo };
  }

  /** The current store. */
  get store(): EmulatorStore {
    return this.current;
  }

  /** The emulator clock (the store's). */
  get clock(): EmulatorClock {
    return this.current.clock;
  }

  /** One table of the current store. */
  table(name: TableName): Table {
    return this.current.tables[name];
  }

  /** The account of an e-mail address (case-insensitive), if any. */
  account(email: string): Account | undefined {
    const exact = this.current.accounts.get(email);
    if (exact) return exact;
    const lower = email.toLowerCase();
    for (const [key, account] of this.current.accounts) if (key.toLowerCase() === lower) return account;
    return undefined;
  }

  /** Swaps in a new store; sessions and pending codes of the old world are dropped. */
  replaceStore(store: EmulatorStore, seeded: SeedInfo): void {
    this.current = store;
    this.seedInfo = { ...seeded };
    this.sessions.expireAll();
    this.codes.clear();
    this.apiTokens = this.newApiTokens();
    this.audio.clear();
    for (const listener of this.listeners) listener(store);
  }

  private newApiTokens(): ApiTokens {
    return new ApiTokens(
      () => this.current.customers,
      () => this.clock,
    );
  }

  /** Subscribes to store replacement (webhooks and the call simulator re-attach their onChange here). */
  onStoreReplaced(listener: StoreReplacedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
