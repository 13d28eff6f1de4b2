// Request bodies, one file per spec module.
export * from './auth';
export * from './calls';
export * from './storage';
export * from './customer';
export * from './history';
export * from './callmeback';
export * from './settings';
export * from './reports';
export { E164 } from './fields';
