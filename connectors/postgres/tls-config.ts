// `database.sslmode` config (schema only): the libpq sslmode values callsync supports; what they
// turn into for node-postgres is in connectors/postgres/tls.ts.
import { z } from 'zod';

/** libpq's sslmode values callsync supports. */
export const sslModeSchema = z.enum(['disable', 'require', 'verify-ca', 'verify-full']);
export type SslMode = z.infer<typeof sslModeSchema>;
