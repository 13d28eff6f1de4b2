// Certificates made by the tests with the real `openssl` command: a CA, a server certificate for
// 127.0.0.1 and a DNS name, and a client certificate for mTLS; plus an unrelated CA, to prove a
// wrong trust anchor is refused. P-256 keys: fast to make, and accepted by rustls and OpenSSL.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  /** The CA that signed server and client (PEM file paths). */
  caCert: string;
  server: { cert: string; key: string };
  client: { cert: string; key: string };
  /** A CA that signed nothing here. */
  otherCaCert: string;
  /** DNS name in the server certificate (beside IP 127.0.0.1). */
  serverName: string;
  /** PEM text of a file. */
  pem(path: string): string;
}

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT')
      throw new Error('this test needs the `openssl` command: apt-get install openssl', { cause: err });
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString() ?? String(err)}`, { cause: err });
  }
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** Makes a fresh CA, server and client certificates in a temporary directory. */
export function makeTestCertificates(serverName = 'temporal.callsync.test'): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'callsync-certs-'));
  const subj = (cn: string) => ['-subj', `/CN=${cn}`];
  const ca = (name: string, cn: string): void =>
    openssl(
      [
        'req',
        '-x509',
        ...EC_KEY,
        ...subj(cn),
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.crt`,
        '-days',
        '2',
      ].concat([
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ]),
      dir,
    );
  ca('ca', 'callsync test CA');
  ca('other-ca', 'unrelated CA');
  const leaf = (name: string, cn: string, extensions: string): void => {
    writeFileSync(join(dir, `${name}.ext`), extensions);
    openssl(['req', '-new', ...EC_KEY, ...subj(cn), '-keyout', `${name}.key`, '-out', `${name}.csr`], dir);
    openssl(
      [
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.crt',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-days',
        '2',
        '-out',
        `${name}.crt`,
        '-extfile',
        `${name}.ext`,
      ],
      dir,
    );
  };
  leaf(
    'server',
    serverName,
    `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:${serverName},IP:127.0.0.1\n`,
  );
  leaf(
    'client',
    'callsync worker',
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n',
  );
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    server: { cert: join(dir, 'server.crt'), key: join(dir, 'server.key') },
    client: { cert: join(dir, 'client.crt'), key: join(dir, 'client.key') },
    otherCaCert: join(dir, 'other-ca.crt'),
    serverName,
    pem: (path) => readFileSync(path, 'utf8'),
  };
}
