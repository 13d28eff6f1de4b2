// TLS for the Dynamics 365 test server. MSAL refuses an authority that is not https (msal-common's
// UrlString.validateAsUri: authorityUriInsecure), so the test server speaks https with this
// self-signed certificate for 127.0.0.1 and localhost (valid until 2126), generated once for tests
// with `openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
// -subj "/CN=callsync dynamics test server" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost"`.
// It guards nothing: a test-only key for a server on the loopback interface.
import tls from 'node:tls';

export const TEST_CERT = `
-----BEGIN CERTIFICATE-----
MIIBxDCCAWmgAwIBAgIUS8YVtewEFOPpwSemUuKN3vuqiMMwCgYIKoZIzj0EAwIw
KDEmMCQGA1UEAwwdY2FsbHN5bmMgZHluYW1pY3MgdGVzdCBzZXJ2ZXIwIBcNMjYx
MTI3MjAxNjIwWhgPMjEyNjExMDMyMDE2MjBaMCgxJjAkBgNVBAMMHWNhbGxzeW5j
IGR5bmFtaWNzIHRlc3Qgc2VydmVyMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE
iymn7kdAtbZh+tZnBWvQNDczFGexaqec/7p+/Dp6GJ3alRqenmqRdksPI/+BhHUM
JdhEfsCMSzibgNoC7ickZqNvMG0wHQYDVR0OBBYEFHRIg9v0XFeaBix2nut5mTC3
DOx9MB8GA1UdIwQYMBaAFHRIg9v0XFeaBix2nut5mTC3DOx9MA8GA1UdEwEB/wQF
MAMBAf8wGgYDVR0RBBMwEYcEfwAAAYIJbG9jYWxob3N0MAoGCCqGSM49BAMCA0kA
MEYCIQC9h49Yom426Z4msl+sBg3VvdalRs7+FHBvUfP822OdmgIhALbgzDNIF2Ec
NTB/nWQGTJS/pRcmijeXLOivH/m9yaVZ
-----END CERTIFICATE-----
`.trim();

export const TEST_KEY = `
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg83/WXCiR6tHem+Zf
d82rFvvQHLDhDEXlL50WZEt1//WhRANCAASLKafuR0C1tmH61mcFa9A0NzMUZ7Fq
p5z/un78OnoYndqVGp6eapF2Sw8j/4GEdQwl2ER+wIxLOJuA2gLuJyRm
-----END PRIVATE KEY-----
`.trim();

let trusted = false;

/**
 * Makes this process's TLS clients (node:https, which dynamics-web-api uses, and fetch, which MSAL
 * uses) trust the test certificate besides the default CAs (tls.setDefaultCACertificates).
 */
export function trustTestCertificate(): void {
  if (trusted) return;
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), TEST_CERT]);
  trusted = true;
}
