export * from './config';
export * from './errors';
export * from './mail-sender';
export * from './message';
