// A real SMTP server for tests (the `smtp-server` package): it requires AUTH PLAIN/LOGIN with the
// given credentials, receives each message whole and parses it with mailparser; `failNextData`
// makes it answer the next DATA with an SMTP error code (a 4xx or 5xx reply).
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** Whether the session was upgraded to TLS (STARTTLS) before the message. */
  secure: boolean;
  raw: Buffer;
  parsed: ParsedMail;
}

export interface SmtpInbox {
  host: string;
  port: number;
  user: string;
  password: string;
  messages: ReceivedMail[];
  /** The next DATA gets this reply code (e.g. 451 temporary, 552 permanent) instead of 250. */
  failNextData(code: number, message?: string): void;
  close(): Promise<void>;
}

/** Starts the server on a free local port; with `tls` (PEM file contents) it offers STARTTLS. */
export async function startSmtpInbox(tls?: { key: string; cert: string }): Promise<SmtpInbox> {
  const user = 'reports';
  const password = 'smtp-test-secret';
  const messages: ReceivedMail[] = [];
  let failure: { code: number; message: string } | undefined;
  const server = new SMTPServer({
    // STARTTLS is optional in the protocol: offered only when the test gives a certificate.
    ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'] }),
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failure) {
          const { code, message } = failure;
          failure = undefined;
          callback(Object.assign(new Error(message), { responseCode: code }));
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            messages.push({
              secure: session.secure,
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw,
              parsed,
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    messages,
    failNextData(code, message = code >= 500 ? 'Message rejected' : 'Try again later') {
      failure = { code, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
