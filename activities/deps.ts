import type { Client } from '@temporalio/client';
import type { BigQueryWarehouse } from '../connectors/bigquery';
import type { CrmConnector } from '../connectors/crm/crm-connector';
import type { PlatformClient } from '../connectors/platform';
import type { ObjectStore } from '../connectors/object-store';
import type { WarehouseDatabase } from '../connectors/postgres';
import type { CallsyncConfig } from '../config/schema';
import type { Logger } from '../lib/logger';
import type { ReportDeliveryServices } from './report-delivery-services';

/** What activities need, injected once by the worker (credentials live in the clients, never in arguments). */
export interface ActivityDeps {
  config: CallsyncConfig;
  /** One platform client per configured account name. */
  platform: (account: string) => PlatformClient;
  warehouse: WarehouseDatabase;
  archive: ObjectStore;
  /** Where call logs and callback tasks go (the built-in warehouse destination by default). */
  crm: (account: string) => CrmConnector;
  /** For activities that start or signal other workflows (callbacks). */
  temporal?: Client;
  logger: Logger;
  /** The account's BigQuery warehouse, when it goes to BigQuery too (warehouse.bigquery). */
  bigquery?: (account: string) => BigQueryWarehouse | undefined;
  /** Report delivery's mail, Drive and Sheets clients; built from config.reports.delivery when absent. */
  reportDelivery?: ReportDeliveryServices;
}
