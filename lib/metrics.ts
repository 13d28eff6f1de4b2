// callsync's Prometheus metrics (prom-client): one registry per process, every name prefixed
// `callsync_`. The receiver serves them at /metrics; a worker serves its own on worker.metricsPort
// (activities count stream pages, CRM writes and callbacks where they happen). docs/operations.md "Metrics"
// lists them.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Every metric callsync records, on one registry. */
export interface CallsyncMetrics {
  registry: Registry;
  /** Webhook deliveries accepted (committed to the inbox), by account. */
  webhooksReceived: Counter<'account'>;
  /** Webhook deliveries refused, by account and reason (auth, body, ...). */
  webhooksRejected: Counter<'account' | 'reason'>;
  /** Time from a webhook's arrival to its answer, by outcome. */
  webhookDuration: Histogram<'outcome'>;
  /** Inbox rows waiting for the relay (set at each scrape from the database). */
  inboxBacklog: Gauge;
  /** Age of the oldest row waiting for the relay, in seconds (0 when none waits). */
  relayLag: Gauge;
  /** Records written per stream. */
  streamRecords: Counter<'account' | 'stream'>;
  /** Pages committed per stream. */
  streamPages: Counter<'account' | 'stream'>;
  /** Records quarantined or pages failed per stream. */
  streamErrors: Counter<'account' | 'stream'>;
  /** Seconds between now and the newest record a stream has committed. */
  streamLag: Gauge<'account' | 'stream'>;
  /** Vendor API requests by vendor and HTTP status class (2xx, 4xx, 5xx, error). */
  apiRequests: Counter<'vendor' | 'status'>;
  /** Vendor API requests that failed (5xx, network), by vendor. */
  apiErrors: Counter<'vendor'>;
  /** Vendor API answers 429 (rate limited), by vendor. */
  apiThrottled: Counter<'vendor'>;
  /** CRM writes (call logs, tasks, contacts) by account and kind. */
  crmWrites: Counter<'account' | 'kind'>;
  /** Callbacks opened (first missed call of a caller). */
  callbacksOpened: Counter<'account'>;
  /** Callbacks closed (a later call connected). */
  callbacksClosed: Counter<'account'>;
  /** Report runs finished, by outcome (succeeded, failed). */
  reportRuns: Counter<'status'>;
  /** Call and callback follow-ups that gave up (rows of call_failures), by account. */
  callFailures: Counter<'account'>;
  /** Failed attempts to set up a CRM destination (properties, field access), by destination type. */
  crmSetupFailures: Counter<'destination'>;
  /** Failed renewals of an access token (a login again after expiry), by vendor. */
  tokenRefreshFailures: Counter<'vendor'>;
  /** Recordings and voice messages whose audio is not archived yet (read at each scrape), by stream. */
  archiveBacklog: Gauge<'stream'>;
  /** Open (unresolved) quarantined records (read at each scrape), by account and stream. */
  quarantineOpen: Gauge<'account' | 'stream'>;
  /**
   * When each stream's last incremental run succeeded, as a Unix time (read at each scrape); `kind`
   * is history (synced every few minutes) or settings (hourly), so an alert can expect each's pace.
   */
  streamLastSuccess: Gauge<'account' | 'stream' | 'kind'>;
}

/** A fresh registry with every callsync metric, plus Node's process metrics (callsync_process_*, ...). */
export function createMetrics(): CallsyncMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'callsync_' });
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name: `callsync_${name}`, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name: `callsync_${name}`, help, labelNames, registers });
  return {
    registry,
    webhooksReceived: counter('webhooks_received_total', 'Webhook deliveries accepted', ['account']),
    webhooksRejected: counter('webhooks_rejected_total', 'Webhook deliveries refused', ['account', 'reason']),
    webhookDuration: new Histogram({
      name: 'callsync_webhook_duration_seconds',
      help: 'Time from a webhook arriving to its answer',
      labelNames: ['outcome'],
      // A delivery is answered once its inbox row commits: milliseconds, seconds when the database lags.
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    inboxBacklog: gauge('inbox_backlog', 'Inbox rows waiting for the relay', []),
    relayLag: gauge('relay_lag_seconds', 'Age of the oldest inbox row waiting for the relay', []),
    streamRecords: counter('stream_records_total', 'Records written per stream', ['account', 'stream']),
    streamPages: counter('stream_pages_total', 'Pages committed per stream', ['account', 'stream']),
    streamErrors: counter('stream_errors_total', 'Records quarantined per stream', ['account', 'stream']),
    streamLag: gauge('stream_lag_seconds', 'Age of the newest record a stream committed', [
      'account',
      'stream',
    ]),
    apiRequests: counter('api_requests_total', 'Vendor API requests', ['vendor', 'status']),
    apiErrors: counter('api_errors_total', 'Vendor API requests that failed (5xx, network)', ['vendor']),
    apiThrottled: counter('api_throttled_total', 'Vendor API answers 429', ['vendor']),
    crmWrites: counter('crm_writes_total', 'CRM writes', ['account', 'kind']),
    callbacksOpened: counter('callbacks_opened_total', 'Callbacks opened', ['account']),
    callbacksClosed: counter('callbacks_closed_total', 'Callbacks closed', ['account']),
    reportRuns: counter('report_runs_total', 'Report runs finished', ['status']),
    callFailures: counter('call_failures_total', 'Call follow-ups that gave up', ['account']),
    crmSetupFailures: counter('crm_setup_failures_total', 'Failed CRM setup attempts', ['destination']),
    tokenRefreshFailures: counter('token_refresh_failures_total', 'Failed access token renewals', ['vendor']),
    archiveBacklog: gauge('archive_backlog', 'Audio files not archived yet', ['stream']),
    quarantineOpen: gauge('quarantine_open', 'Open quarantined records', ['account', 'stream']),
    streamLastSuccess: gauge(
      'stream_last_success_timestamp_seconds',
      'When the stream last synced successfully (incremental run)',
      ['account', 'stream', 'kind'],
    ),
  };
}

let processMetrics: CallsyncMetrics | undefined;

/** This process's metrics, created on first use (activities and the server share them). */
export function metrics(): CallsyncMetrics {
  processMetrics ??= createMetrics();
  return processMetrics;
}

/** The status class of an HTTP status for api_requests_total (`error` when there was no answer). */
export function statusClass(status: number | undefined): string {
  return status === undefined ? 'error' : `${Math.floor(status / 100)}xx`;
}

/** Counts one vendor API answer (or failure to answer) into api_requests/errors/throttled. */
export function recordApiRequest(
  vendor: string,
  status: number | undefined,
  m: CallsyncMetrics = metrics(),
): void {
  m.apiRequests.inc({ vendor, status: statusClass(status) });
  if (status === 429) m.apiThrottled.inc({ vendor });
  else if (status === undefined || status >= 500) m.apiErrors.inc({ vendor });
}

/** Seconds from a platform timestamp ("YYYY-MM-DD HH:MM:SS", UTC) to now; undefined when it is no time. */
export function lagSeconds(value: string | number | null | undefined, now = Date.now()): number | undefined {
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
  return Number.isNaN(at) ? undefined : Math.max(0, (now - at) / 1000);
}
