// Zendesk Support destination.
export { zendeskConfigSchema, type ZendeskConfig, type ZendeskConfigInput } from './config';
export { ZendeskConnector, type ZendeskConnectorOptions } from './zendesk-connector';
export { zendeskDestinationId } from './identity';
