export { PipedriveConnector, type PipedriveConnectorOptions } from './pipedrive-connector';
export { pipedriveDestinationId } from './identity';
export { pipedriveConfigSchema, type PipedriveConfig, type PipedriveConfigInput } from './config';
export { OAuthAccessToken, pipedriveInstallKey } from './access-token';
