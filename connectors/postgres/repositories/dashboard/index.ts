// The dashboard's queries (server/dashboard renders them).
export * from './overview';
export * from './charts';
export * from './calls';
export * from './quarantine';
export * from './users';
