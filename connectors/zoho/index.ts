// Zoho CRM destination.
export { zohoConfigSchema, type ZohoConfig, type ZohoConfigInput } from './config';
export { ZohoConnector } from './zoho-connector';
