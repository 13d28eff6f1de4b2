export {
  PipedriveConnector,
  pipedriveDestinationId,
  type PipedriveConnectorOptions,
} from './pipedrive-connector';
export { pipedriveConfigSchema, type PipedriveConfig, type PipedriveConfigInput } from './config';
export { OAuthAccessToken, pipedriveInstallKey } from './access-token';
