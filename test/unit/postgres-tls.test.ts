import { explainPostgresTlsError, postgresSsl } from '../../connectors/postgres/tls';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const read = ((path: string) => {
  if (path === '/etc/pg-ca.pem') return CA;
  throw Object.assign(new Error('nope'), { code: 'ENOENT' });
}) as unknown as typeof import('node:fs').readFileSync;

describe('postgresSsl', () => {
  it('maps each sslmode to pg TLS options', () => {
    expect(postgresSsl(undefined, undefined, read)).toBeUndefined();
    expect(postgresSsl('disable', CA, read)).toBe(false);
    expect(postgresSsl('require', undefined, read)).toEqual({ rejectUnauthorized: false });
    expect(postgresSsl('verify-full', '/etc/pg-ca.pem', read)).toEqual({ rejectUnauthorized: true, ca: CA });
    const verifyCa = postgresSsl('verify-ca', CA, read);
    expect(verifyCa).toMatchObject({ rejectUnauthorized: true, ca: CA });
    // verify-ca does not check the host name.
    expect((verifyCa as { checkServerIdentity: () => unknown }).checkServerIdentity()).toBeUndefined();
  });

  it('names database.sslCa when it is missing or unreadable', () => {
    expect(() => postgresSsl('verify-full', undefined, read)).toThrow(
      /database\.sslCa: sslmode verify-full needs/,
    );
    expect(() => postgresSsl('verify-ca', '/etc/missing.pem', read)).toThrow(
      'database.sslCa: cannot read /etc/missing.pem (ENOENT)',
    );
  });

  it('explains a certificate from another CA', () => {
    const err = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(explainPostgresTlsError(err).message).toMatch(
      /not signed by the configured CA \(check database\.sslCa\)/,
    );
  });
});
