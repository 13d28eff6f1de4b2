// Zendesk Support destination.
export { zendeskConfigSchema, type ZendeskConfig, type ZendeskConfigInput } from './config';
export { ZendeskConnector, zendeskDestinationId, type ZendeskConnectorOptions } from './zendesk-connector';
