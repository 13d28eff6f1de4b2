// Salesforce destination.
export { salesforceConfigSchema, type SalesforceConfig, type SalesforceConfigInput } from './config';
export {
  SalesforceConnector,
  COLLECTION_LIMIT,
  type SalesforceConnectorOptions,
} from './salesforce-connector';
export * from './fields';
export { messageTaskFields } from './messages';
