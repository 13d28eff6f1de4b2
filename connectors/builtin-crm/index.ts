// The built-in CRM destination (warehouse tables), used when no CRM is configured.
export { BuiltinCrmConnector, DESTINATION as BUILTIN_DESTINATION } from './builtin-crm-connector';
export * from './rows';
