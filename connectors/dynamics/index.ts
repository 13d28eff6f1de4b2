// Microsoft Dynamics 365 (Dataverse) destination.
export { DynamicsConnector, type DynamicsConnectorOptions } from './dynamics-connector';
export { dynamicsConfigSchema, type DynamicsConfig, type DynamicsConfigInput } from './config';
