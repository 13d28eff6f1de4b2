// PostgreSQL over TLS for real: an embedded PostgreSQL started with ssl=on and a certificate made
// by openssl, reached through the config (database.sslmode verify-full and database.sslCa) by the
// same createDatabase every part of callsync uses (kysely queries and COPY on its pool).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { parseTestConfig } from '../support/test-config';
import { createDatabase, explainPostgresTlsError, postgresSsl } from '../../connectors/postgres';
import { startEmbeddedPostgres, type RunningPostgres } from '../../local/embedded-postgres';
import { makeTestCertificates, type TestCertificates } from '../support/test-certificates';

const account = {
  name: 'acme',
  platform: {
    baseUrl: 'https://p.example/v1.1/voipstudio',
    credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
  },
};

/** Server key and certificate where the server's user can read them (PostgreSQL wants the key 0600). */
function serverFiles(certs: TestCertificates): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'callsync-pg-tls-'));
  chmodSync(dir, 0o755);
  const cert = join(dir, 'server.crt');
  const key = join(dir, 'server.key');
  copyFileSync(certs.server.cert, cert);
  copyFileSync(certs.server.key, key);
  chmodSync(cert, 0o644);
  chmodSync(key, 0o600);
  if (process.getuid?.() === 0) {
    // As root the embedded server runs as the `postgres` system user (local/embedded-postgres.ts).
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    chownSync(key, uid, -1);
    chownSync(cert, uid, -1);
  }
  return { cert, key };
}

describe('PostgreSQL over TLS', () => {
  let certs: TestCertificates;
  let pg: RunningPostgres;

  beforeAll(async () => {
    certs = makeTestCertificates('localhost');
    const files = serverFiles(certs);
    pg = await startEmbeddedPostgres({
      dataDir: join(mkdtempSync(join(tmpdir(), 'callsync-pg-tls-data-')), 'data'),
      persistent: false,
      serverFlags: ['-c', 'ssl=on', '-c', `ssl_cert_file=${files.cert}`, '-c', `ssl_key_file=${files.key}`],
    });
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });

  const connect = (database: Record<string, unknown>) => {
    const config = parseTestConfig({
      accounts: [account],
      database: { url: pg.url.replace('127.0.0.1', 'localhost'), ...database },
    });
    return createDatabase(config.database.url!, {
      ssl: postgresSsl(config.database.sslmode, config.database.sslCa)!,
    });
  };

  it('connects with verify-full through the config, and the session is encrypted', async () => {
    const w = connect({ sslmode: 'verify-full', sslCa: certs.caCert });
    try {
      const row = await sql<{
        ssl: boolean;
      }>`select ssl from pg_stat_ssl where pid = pg_backend_pid()`.execute(w.db);
      expect(row.rows[0]?.ssl).toBe(true);
    } finally {
      await w.close();
    }
  });

  it('refuses a server certificate from another CA, naming database.sslCa', async () => {
    const w = connect({ sslmode: 'verify-full', sslCa: certs.pem(certs.otherCaCert) });
    try {
      const err = await sql`select 1`.execute(w.db).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeDefined();
      expect(explainPostgresTlsError(err).message).toMatch(
        /not signed by the configured CA \(check database\.sslCa\)/,
      );
    } finally {
      await w.close();
    }
  });
});
