// Object stores for archived audio.
export * from './object-store';
export * from './local-directory';
export * from './gcs';
export * from './gcs-config';
