// The clients report delivery uses, built once per worker from `reports.delivery` or an account's own
// (`accounts[].overrides.reports.delivery`; credentials come
// from config, never from activity arguments). Tests replace any of them through deps.reportDelivery.
import { resolve } from 'node:path';
import type { ReportDeliveryConfig } from '../config/report-delivery';
import { createMailSender, type MailSender } from '../connectors/email/mail-sender';
import { actsForPerson, googleAuthClient } from '../connectors/google/credentials';
import { DRIVE_SCOPES, DriveFiles } from '../connectors/google/drive';
import { SheetsReports, SHEETS_SCOPES } from '../connectors/google/sheets';

/** Everything report delivery talks to; `undefined` when that channel is not configured. */
export interface ReportDeliveryServices {
  mail: MailSender;
  drive: DriveFiles | undefined;
  sheets: SheetsReports | undefined;
  /** Test hooks: called at the points where a worker could die (between a send and its record). */
  hooks?: {
    afterEmailSent?: (deliveryKey: string) => void | Promise<void>;
    afterDriveUpload?: (deliveryKey: string) => void | Promise<void>;
  };
}

/** Builds the services the config asks for. */
export async function createReportDeliveryServices(
  config: ReportDeliveryConfig,
): Promise<ReportDeliveryServices> {
  const mail = createMailSender(config.email, resolve(config.email.outboxDir));
  const google = config.google;
  if (!google || (!google.drive && !google.sheets.enabled))
    return { mail, drive: undefined, sheets: undefined };
  const auth = await googleAuthClient(google.credentials, [...DRIVE_SCOPES, ...SHEETS_SCOPES]);
  const drive = new DriveFiles(auth, {
    rootUrl: google.rootUrl,
    resumableAbove: google.drive?.resumableAbove ?? 5 * 1024 * 1024,
    chunkBytes: google.drive?.chunkBytes ?? 8 * 1024 * 1024,
    actsForPerson: actsForPerson(google.credentials, auth),
  });
  return {
    mail,
    drive: google.drive ? drive : undefined,
    sheets: google.sheets.enabled ? new SheetsReports(auth, drive, google.rootUrl) : undefined,
  };
}

const built = new WeakMap<object, Map<ReportDeliveryConfig, Promise<ReportDeliveryServices>>>();

/**
 * The services of one deps object for one delivery config (the global `reports.delivery`, or an
 * account's own): injected ones when given, otherwise built once per config.
 */
export function reportDeliveryServices(
  deps: { reportDelivery?: ReportDeliveryServices },
  delivery: ReportDeliveryConfig,
): Promise<ReportDeliveryServices> {
  if (deps.reportDelivery) return Promise.resolve(deps.reportDelivery);
  let byConfig = built.get(deps);
  if (!byConfig) {
    byConfig = new Map<ReportDeliveryConfig, Promise<ReportDeliveryServices>>();
    built.set(deps, byConfig);
  }
  let services = byConfig.get(delivery);
  if (!services) {
    services = createReportDeliveryServices(delivery);
    // A failed build (an unreadable key file) is not cached, so the next attempt tries again.
    services.catch(() => byConfig.delete(delivery));
    byConfig.set(delivery, services);
  }
  return services;
}
