// The lines `npm start` prints once the local stack runs: where each part of it is, and commands to try.
import { resolve } from 'node:path';
import type { CallsyncConfig } from '../config/schema';
import type { RunningEmulator } from '../emulator';
import type { ApplySchedulesResult } from '../runtime/schedules';
import type { serverObservability } from '../runtime/server-observability';
import type { DashboardSettings, RunningServer } from '../server';

export interface StackBannerInput {
  config: CallsyncConfig;
  emulator: RunningEmulator | undefined;
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | undefined;
  server: RunningServer;
  dashboard: DashboardSettings | undefined;
  observability: Pick<ReturnType<typeof serverObservability>, 'codec'>;
  schedules: ApplySchedulesResult;
  reportSchedules: { mirrored: number; quarantined: number };
}

export function stackBanner(input: StackBannerInput): string {
  const {
    config,
    emulator,
    databaseUrl,
    temporalAddress,
    temporalUiUrl,
    server,
    dashboard,
    observability,
    schedules,
    reportSchedules,
  } = input;
  return [
    'callsync is running (Ctrl-C stops everything)',
    ...(emulator ? [`  platform emulator   ${emulator.baseUrl}`] : []),
    `  Temporal            ${temporalAddress}`,
    ...(temporalUiUrl ? [`  Temporal UI         ${temporalUiUrl}`] : []),
    `  warehouse           ${config.database.url ? '(DATABASE_URL)' : databaseUrl}`,
    ...(config.warehouse.bigquery
      ? [
          `  BigQuery            ${config.warehouse.bigquery.projectId}.${config.warehouse.bigquery.dataset} (${config.warehouse.bigquery.location})`,
        ]
      : []),
    ...(config.archive.gcs
      ? [`  audio archive       gs://${config.archive.gcs.bucket}/${config.archive.gcs.prefix}`]
      : []),
    ...(dashboard
      ? [
          `  dashboard           ${server.url}/dashboard (user admin, password: ${config.server.dashboard.passwordFile ?? 'server.dashboard.password'})`,
        ]
      : []),
    `  webhook receiver    ${server.url}/webhooks/<account>/<secret>`,
    ...(server.metricsUrl ? [`  metrics             ${server.metricsUrl}`] : []),
    ...(observability.codec
      ? [
          `  codec endpoint      ${server.url}/codec (bearer token: ${config.server.codec.tokenFile ?? 'server.codec.token'})`,
          `                      Temporal UI: sign in once at ${server.url}/codec/login with the token, then`,
          `                      Data Encoder → ${server.url}/codec, "Include cross-origin credentials" on`,
          `                      CLI: temporal workflow show --codec-endpoint ${server.url}/codec --codec-auth "Bearer <token>"`,
        ]
      : []),
    `  sync loops          ${schedules.created.length} started, ${schedules.updated.length} updated, ${schedules.deleted.length} deleted, ${schedules.unchanged.length} unchanged`,
    `  report schedules    ${reportSchedules.mirrored} mirrored, ${reportSchedules.quarantined} quarantined (more follow the report_schedules sync)`,
    `  report files        ${resolve(config.reports.directory)}`,
    `  report e-mails      ${config.reports.delivery.email.smtp ? 'SMTP' : `${resolve(config.reports.delivery.email.outboxDir)} (.eml files; no SMTP configured)`}`,
    'Try:',
    '  npx callsync status',
    '  npx callsync backfill --stream cdrs --from 2026-05-01',
    '  npx callsync sync --stream cdrs --now',
    '  npx callsync reports list',
  ].join('\n');
}
