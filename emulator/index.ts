// The emulator's entry: a local, faithful implementation of the platform's REST API, seeded with
// realistic data, with control endpoints under /_emulator/.
import type { AddressInfo } from 'node:net';
import { silentLogger, type Logger } from '../lib/logger';
import { buildEmulatorServer } from './server/app';
import {
  apiSettingsBody,
  applyApiSettings,
  type ApiSettings,
  type ApiSettingsInput,
} from './server/api-settings';
import { EmulatorContext, storeOptions } from './server/context';
import { API_PREFIXES } from './server/paths';
import type { ReadyAdmin } from './server/ready-line';
import type { CallSimulator } from './simulator/simulator';
import { createStore, type EmulatorStore } from './store';
import type { WebhookDelivery } from './webhooks/delivery';

export { DEFAULT_NOW } from './store';
export { readyLine } from './server/ready-line';
export type { ReadyAdmin } from './server/ready-line';
export { emulatorRouteTemplates } from './server/routes';
export type { ApiSettings, ApiSettingsInput } from './server/api-settings';
export type { CallSimulator } from './simulator/simulator';
export type { Ledger, LedgerCall, LedgerSms, LedgerVoicemail } from './simulator/ledger';
export type { WebhookDelivery } from './webhooks/delivery';

/** CDRs seeded when a caller does not say. */
export const DEFAULT_CDRS = 10_000;

/** Options of startEmulator. */
export interface StartEmulatorOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Seed of the generated data: the same seed gives the same data. */
  seed: number;
  /** Number of CDRs to generate (default DEFAULT_CDRS). */
  cdrs?: number;
  /**
   * A fixed clock: history ends here and time moves only when told to (tests, benchmarks). Without it the
   * clock follows real time and the seeded history ends at the start, with history ids above any earlier
   * run's (a restart never replays call ids).
   */
  now?: Date;
  logger?: Logger;
}

/** A running emulator. */
export interface RunningEmulator {
  /** e.g. http://127.0.0.1:8787/v1.1/voipstudio */
  baseUrl: string;
  /** e.g. http://127.0.0.1:8787 (control endpoints are under origin + /_emulator/) */
  origin: string;
  /** Credentials of the seeded admin of the current store. */
  readonly admin: ReadyAdmin & { customer_id: number };
  /** The current store (replaced by POST /_emulator/seed). */
  readonly store: EmulatorStore;
  /** Every session token the emulator has issued (secrets a harness checks no log holds). */
  issuedTokens(): string[];
  /** The call simulator behind /_emulator/simulator… (configure, start, placeCall, ledger()…). */
  readonly simulator: CallSimulator;
  /** The webhook delivery behind /_emulator/webhooks… (faults.set, setSettings, log, idle…). */
  readonly webhooks: WebhookDelivery;
  /** The API's listing settings (as POST /_emulator/api): changes the fields given, returns them all. */
  api(input?: ApiSettingsInput): ApiSettings;
  close(): Promise<void>;
}

/** Address to use in URLs for a listening host (wildcards are reached through loopback). */
function urlHost(host: string, address: AddressInfo): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}

/** Builds the store, starts the HTTP server and resolves once it listens. */
export async function startEmulator(opts: StartEmulatorOptions): Promise<RunningEmulator> {
  const logger = opts.logger ?? silentLogger;
  const seeded = {
    seed: opts.seed,
    cdrs: opts.cdrs ?? DEFAULT_CDRS,
    ...(opts.now !== undefined ? { now: opts.now } : {}),
  };
  const started = Date.now();
  const ctx = new EmulatorContext(createStore(storeOptions(seeded)), seeded, logger);
  logger.info(
    {
      seed: seeded.seed,
      cdrs: seeded.cdrs,
      clock: opts.now?.toISOString() ?? 'real-time',
      ms: Date.now() - started,
    },
    'emulator store built',
  );
  const { app, simulator, webhooks } = await buildEmulatorServer(ctx);
  const host = opts.host ?? '127.0.0.1';
  await app.listen({ port: opts.port, host });
  const address = app.server.address() as AddressInfo;
  const origin = `http://${urlHost(host, address)}:${address.port}`;
  return {
    baseUrl: `${origin}${API_PREFIXES[0] ?? ''}`,
    origin,
    get admin() {
      return { ...ctx.store.admin };
    },
    get store() {
      return ctx.store;
    },
    issuedTokens: () => ctx.sessions.issuedTokens(),
    simulator,
    webhooks,
    api: (input = {}) => {
      ctx.api = applyApiSettings(ctx.api, apiSettingsBody.parse(input));
      return { ...ctx.api };
    },
    close: () => app.close(),
  };
}
