import { z } from 'zod';
import { secret, urlHoldsPassword } from './secret';
import { contactsConfigSchema } from './contact-sync';
import { bigqueryConfigSchema } from '../connectors/bigquery/config';
import { hubspotConfigSchema } from '../connectors/hubspot/config';
import { gcsArchiveConfigSchema } from '../connectors/object-store/gcs-config';
import { platformClientConfigSchema } from '../connectors/platform/config';
import { salesforceConfigSchema } from '../connectors/salesforce/config';
import { pipedriveConfigSchema } from '../connectors/pipedrive/config';
import { dynamicsConfigSchema } from '../connectors/dynamics/config';
import { zohoConfigSchema } from '../connectors/zoho/config';
import { s3ConfigSchema } from '../connectors/object-store/s3-config';
import { reportsBuildConfigShape } from '../reports/config';
import { reportDeliveryConfigSchema } from './report-delivery';
import { sslModeSchema } from '../connectors/postgres/tls-config';
import { temporalConfigSchema } from './temporal';
import {
  codecEndpointSchema,
  dashboardConfigSchema,
  metricsConfigSchema,
  workerConfigSchema,
} from './observability';
import { googleTasksConfigSchema } from '../connectors/google-tasks/config';
import { zendeskConfigSchema } from '../connectors/zendesk/config';
import { googleTranscriptionConfigSchema } from '../connectors/google-speech/config';
import { googleDriveArchiveConfigSchema } from '../connectors/object-store/google-drive-config';
import { erasureConfigSchema } from './erasure';
import { conversationsConfigSchema } from './conversations';
import { outcomesConfigSchema } from './outcomes';
import { durationMs } from './duration';
import { accountOverridesSchema, clockTime, crmOwnersSchema, matchRuleSchema } from './account-overrides';

export { durationMs } from './duration';

/** One platform account that callsync keeps in step. */
export const accountConfigSchema = z.object({
  /** Short name used in the warehouse `account` column, workflow ids and schedules. */
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,40}$/, 'lowercase letters, digits, - and _ (max 41)'),
  /** How to reach and authenticate against the platform. */
  platform: platformClientConfigSchema,
  /** Secret carried in this account's webhook URL (path token or Basic password); no default. */
  webhookSecret: secret(z.string().min(16, 'must be at least 16 characters')).optional(),
  /** This account's own CRM destination, instead of `crm.destination` (which serves the others). */
  crm: z.lazy(() => crmDestinationSchema).optional(),
  /**
   * This account's own values of settings its CRM decides (`crm.matchRule`, `crm.owners`,
   * `crm.createUnknownContacts`, `callbacks`, `reports.delivery`, `conversations`, `contacts`,
   * `outcomes`); what it leaves out comes from the global sections.
   */
  overrides: accountOverridesSchema.prefault({}),
});

export const syncConfigSchema = z.object({
  /** Polling interval of history streams (CDRs, recordings, SMS, …). */
  historyInterval: durationMs.default(5 * 60_000),
  /** Polling interval of settings streams (users, queues, ring groups, report schedules, contacts). */
  settingsInterval: durationMs.default(60 * 60_000),
  /** Changing streams (recordings, contacts) are re-read over this window so late changes arrive. */
  lookback: durationMs.default(48 * 3_600_000),
  /** Immutable streams (CDRs, SMS, …) are read by id: each run reads again what was written (ids
   *  committed) this long before it, for a record committed after records with larger ids. */
  lateArrival: durationMs.default(2 * 3_600_000),
  /** Records per API page (the platform allows at most 5000). */
  pageSize: z.number().int().min(1).max(5000).default(5000),
  /** Backfill windows run at once. */
  backfillParallelism: z.number().int().min(1).max(32).default(2),
  /** Length of one backfill window. */
  backfillWindow: durationMs.default(7 * 86_400_000),
  /** Streams to sync; all when omitted. */
  streams: z.array(z.string()).optional(),
});

/** Where call logs, callback tasks (and synced contacts) go. */
export const crmDestinationSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('builtin') }),
  hubspotConfigSchema,
  salesforceConfigSchema,
  googleTasksConfigSchema,
  zendeskConfigSchema,
  pipedriveConfigSchema,
  dynamicsConfigSchema,
  zohoConfigSchema,
]);
export type CrmDestinationConfig = z.infer<typeof crmDestinationSchema>;

/** Where call logs and callback tasks go, and how callers are matched to contacts. */
export const crmConfigSchema = z.object({
  /** `builtin` keeps call logs and tasks in the warehouse (the default when no CRM is set up). */
  destination: crmDestinationSchema.default({ type: 'builtin' }),
  /** Country assumed for numbers written without a country code. */
  defaultCountry: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO country code such as GB')
    .default('GB'),
  /** A number matching several contacts: the most recently updated, or the one owned by the call's user. */
  matchRule: matchRuleSchema.default('most_recent'),
  /**
   * For `call_owner`: CRM owner ids by platform user id or e-mail, for users whose CRM e-mail differs
   * (others are found by e-mail through the CRM's owner/user API).
   */
  owners: crmOwnersSchema.prefault({}),
  /** Create a contact for a caller the CRM does not know. */
  createUnknownContacts: z.boolean().default(false),
  /**
   * HubSpot and Salesforce: how long a call log or task write waits for others to share its batch
   * request (more calls per request, at the cost of this much latency).
   */
  batchWait: durationMs.default(400),
  /** How long a contact lookup waits for others to share its search. */
  lookupWait: durationMs.default(250),
});

/** How each call is followed after it ends. */
export const callsConfigSchema = z.object({
  /** How long to wait for a call's CDR after hangup (polled with backoff). */
  cdrWait: durationMs.default(30 * 60_000),
  /** How long to keep updating a call log as its recording and transcript arrive. */
  recordingHorizon: durationMs.default(6 * 3_600_000),
  /** The CDR sync starts a lifecycle for calls this recent that no webhook announced. */
  reconcileWindow: durationMs.default(24 * 3_600_000),
});

/** Missed calls become callback tasks; optionally callsync dials back itself. */
export const callbacksConfigSchema = z.object({
  /** Who the task is for: the user who was called, or the agents of the queue that missed it. */
  assignTo: z.enum(['called_user', 'queue_agents']).default('called_user'),
  /** Task due time after the missed call. */
  dueIn: durationMs.default(60 * 60_000),
  /**
   * How long a callback stays open after its latest missed call (counted from when callsync took that
   * call in) before it expires: status `expired`, not `closed`, since nobody reached the caller.
   */
  expireAfter: durationMs.default(7 * 86_400_000),
  autoDial: z
    .object({
      enabled: z.boolean().default(false),
      /** Business hours, in this IANA time zone. */
      timezone: z.string().default('Europe/London'),
      /** ISO weekdays (1 = Monday). */
      days: z.array(z.number().int().min(1).max(7)).default([1, 2, 3, 4, 5]),
      start: clockTime.default('09:00'),
      end: clockTime.default('17:30'),
      maxAttempts: z.number().int().min(1).max(10).default(3),
      retryAfter: durationMs.default(30 * 60_000),
    })
    .prefault({}),
});

/** The whole configuration, parsed once at start and injected. Secrets have no defaults. */
export const configSchema = z.object({
  /**
   * Accept secrets written inline in the config (local setups: `npm start` sets it); otherwise every
   * secret field must be `{ "env": "NAME" }` or `{ "file": "/path" }` (docs/configuring.md "Secrets").
   */
  allowInlineSecrets: z.boolean().default(false),
  accounts: z.array(accountConfigSchema).min(1, 'at least one platform account is needed'),
  database: z
    .object({
      /**
       * PostgreSQL connection string (a secret when it holds a password: `{ "env" }` or `{ "file" }`); an
       * embedded server under `.data/` is started when absent.
       */
      url: secret(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'), {
        inlineIsSecret: urlHoldsPassword,
      }).optional(),
      /** Data directory of the embedded server. */
      embeddedDir: z.string().default('.data/postgres'),
      /** TLS towards PostgreSQL (libpq's sslmode); what the URL says when absent. */
      sslmode: sslModeSchema.optional(),
      /** CA of the server's certificate (file or PEM), for verify-ca and verify-full. */
      sslCa: z.string().min(1).optional(),
    })
    .prefault({}),
  temporal: temporalConfigSchema.prefault({}),
  sync: syncConfigSchema.prefault({}),
  server: z
    .object({
      /** Port of callsync's HTTP server (webhook receiver). */
      port: z.number().int().min(0).max(65535).default(8788),
      /** Interface it listens on; 0.0.0.0 to accept webhooks from other machines. */
      host: z.string().default('127.0.0.1'),
      /**
       * Believe X-Forwarded-For and X-Forwarded-Proto from a reverse proxy: `true` (any sender: only when
       * nothing but the proxy can reach the port), or the proxies' addresses/CIDRs. Gives the
       * dashboard the client's address (per-address lockout) and HTTPS (its cookies become Secure).
       */
      trustProxy: z.union([z.boolean(), z.array(z.string().min(1)).min(1)]).default(false),
      /** Longest a request may take to arrive, headers and body; a slower or stalled client is cut off. */
      requestTimeout: durationMs.default(10_000),
      /** How long webhook bookkeeping is kept; a scheduled workflow deletes what is older. */
      retention: z
        .object({
          /** Inbox rows relayed (done) longer ago than this are deleted. */
          inbox: durationMs.default(7 * 86_400_000),
          /** Refused deliveries received longer ago than this are deleted. */
          rejected: durationMs.default(30 * 86_400_000),
          /** How often the retention workflow runs. */
          every: durationMs.default(3_600_000),
        })
        .prefault({}),
      relay: z
        .object({
          /**
           * Deliveries per second above which the relay steps back for the receiver (a burst, such
           * as the platform redelivering after an outage); the durable inbox lets it catch up after.
           */
          yieldAbove: z.number().positive().default(500),
          /** A burst pauses the relay outright for this long (a short one is absorbed by the inbox). */
          busyPause: durationMs.default(10_000),
          /** Signals into Temporal in flight once a burst outlasts the pause (0: paused throughout). */
          busyConcurrency: z.number().int().min(0).default(2),
        })
        .prefault({}),
      /** Temporal's remote codec endpoint, for reading encrypted histories in the UI and CLI. */
      codec: codecEndpointSchema.prefault({}),
      /** The dashboard's login (docs/operations.md "Dashboard"). */
      dashboard: dashboardConfigSchema.prefault({}),
    })
    .prefault({}),
  archive: z
    .object({
      /** Directory where recording and voicemail audio is archived. */
      dir: z.string().default('.data/archive'),
      /**
       * Archive only the audio of calls recorded within this long before now; all audio when absent
       * (`npm start` sets 1d, about 35 MB: the emulator's 183 days of recordings are about 8 GB).
       */
      maxAge: durationMs.optional(),
      /**
       * A recording or voice message whose audio the platform answers 404/410 for is asked for again
       * on later runs until this long after the first such answer, then recorded as lost (`0s`: at once).
       */
      missingAudioGrace: durationMs.default(24 * 3_600_000),
      /** Archive to a Cloud Storage bucket instead of `dir` (objects named by account, day and id). */
      gcs: gcsArchiveConfigSchema.optional(),
      /** S3 (or an S3-compatible service) instead of the local directory, shared by every host. */
      s3: s3ConfigSchema.optional(),
      /** Archive to a Google Drive folder instead of `dir` (a folder per account and month). */
      googleDrive: googleDriveArchiveConfigSchema.optional(),
    })
    .refine((a) => [a.gcs, a.s3, a.googleDrive].filter(Boolean).length <= 1, {
      message: 'give at most one of archive.gcs, archive.s3 and archive.googleDrive',
      path: ['gcs'],
    })
    .prefault({}),
  crm: crmConfigSchema.prefault({}),
  /** Two-way contact sync between the platform and the CRM (docs/contact-sync.md "Contact sync"). */
  contacts: contactsConfigSchema.prefault({}),
  calls: callsConfigSchema.prefault({}),
  callbacks: callbacksConfigSchema.prefault({}),
  /** SMS and voicemail on the CRM contact, screen-pop on ringing calls, CRM outcomes back on CDRs. */
  conversations: conversationsConfigSchema.prefault({}),
  /** CRM outcomes (call dispositions) back on the CDR as a label and a note (docs/crm.md "Outcomes back on the CDR"). */
  outcomes: outcomesConfigSchema.prefault({}),
  /** Warehouses besides PostgreSQL (which always holds the service's state and every stream). */
  warehouse: z
    .object({
      /** BigQuery: every stream also loaded into a dataset, exactly once per page. */
      bigquery: bigqueryConfigSchema.optional(),
    })
    .prefault({}),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Report exports: the report catalogue, format and culture codes, and delivery (docs/reports.md "Report exports"). */
  reports: z
    .object({
      ...reportsBuildConfigShape,
      /** Where report files are written (one folder per account). */
      directory: z.string().default('.data/reports'),
      /** A run missed while callsync was down still runs when it is back, if at most this late (once). */
      catchupWindow: durationMs.default(86_400_000),
      /** How finished reports are delivered (e-mail, Drive, Sheets). */
      delivery: reportDeliveryConfigSchema.prefault({}),
    })
    .prefault({}),
  /** Prometheus metrics of the server and workers (docs/operations.md "Metrics"). */
  metrics: metricsConfigSchema.prefault({}),
  /** A worker process's health endpoints (docs/operations.md "Health checks"). */
  worker: workerConfigSchema.prefault({}),
  /** Erasing one person (`callsync erase`; docs/privacy.md "Erasure"). */
  erasure: erasureConfigSchema.prefault({}),
  /** Transcripts for recordings that have none (off unless `google` is given; docs/google.md "Transcripts for recordings that have none (Google Speech-to-Text)"). */
  transcription: z
    .object({
      google: googleTranscriptionConfigSchema
        .extend({
          /** Only recordings made this recently are transcribed (older ones are left as they are). */
          maxAge: durationMs.default(7 * 86_400_000),
          /** How often each account's recordings are looked at. */
          every: durationMs.default(10 * 60_000),
        })
        .optional(),
    })
    .prefault({}),
});

export type CallsyncConfig = z.infer<typeof configSchema>;
export type CallsyncConfigInput = z.input<typeof configSchema>;
export type AccountConfig = z.infer<typeof accountConfigSchema>;
