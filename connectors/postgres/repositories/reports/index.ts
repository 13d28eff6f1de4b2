// Report queries over the warehouse, one file per report; each streams through a cursor.
export * from './period';
export * from './call-summary';
export * from './missed-calls';
export * from './queue-performance';
export * from './activity';
export * from './recordings-cx';
export * from './billing';
export * from './calls-over-time';
export * from './csv-text';
