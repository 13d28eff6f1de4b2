// zod schemas of the platform API: resources (responses), envelopes, request bodies, issue messages.
export * from './primitives';
export * from './fast-parse';
export * from './codes';
export * from './deprecated';
export * from './envelopes';
export * from './issues';
export * from './common';
export * from './auth';
export * from './calls';
export * from './storage';
export * from './customer';
export * from './history';
export * from './callmeback';
export * from './settings';
export * from './reports';
export * from './requests';
export * from './events';
