// HubSpot destination.
export { hubspotConfigSchema, type HubSpotConfig, type HubSpotConfigInput } from './config';
export { HubSpotConnector, BATCH_LIMIT, type HubSpotConnectorOptions } from './hubspot-connector';
export * from './properties';
