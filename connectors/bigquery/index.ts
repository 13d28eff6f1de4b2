// The BigQuery warehouse destination.
export * from './config';
export * from './erasure-sql';
export * from './job-ids';
export * from './table-schema';
export * from './warehouse';
