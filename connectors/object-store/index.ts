// Object stores for archived audio.
export * from './object-store';
export * from './local-directory';
