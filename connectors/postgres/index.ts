// The warehouse: connection, migrations, stream tables, bulk load and service-state repositories.
export * from './db';
export * from './migrate';
export * from './tables';
export * from './stream-tables';
export * from './copy-text';
export * from './bulk-upsert';
export * from './repositories';
export * from './tls';
