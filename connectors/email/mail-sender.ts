// Sends report e-mails: over SMTP (nodemailer), or into a local outbox as one RFC 822 `.eml` file per
// message, named by its delivery key (nodemailer's stream transport renders the exact bytes SMTP
// would carry). The outbox can say whether a message went out; SMTP cannot.
import { randomBytes } from 'node:crypto';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type nodemailerModule from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { EmailConfig } from './config';
import { lazyPackage } from '../../lib/lazy-package';

const nodemailer = lazyPackage<typeof nodemailerModule>('nodemailer');

/** What the transport reported for a sent message. */
export interface SentMail {
  messageId: string;
  accepted: string[];
  rejected: string[];
  /** The server's last reply, or the outbox file's path. */
  response: string;
}

/** One way of sending mail. */
export interface MailSender {
  readonly kind: 'smtp' | 'outbox';
  /** Whether the message with this key went out: the outbox knows; SMTP cannot tell (undefined). */
  delivered(deliveryKey: string): Promise<boolean | undefined>;
  send(deliveryKey: string, message: Mail.Options): Promise<SentMail>;
  close(): void;
}

/** The sender the config asks for: SMTP when `smtp` is set, the outbox directory otherwise. */
export function createMailSender(config: EmailConfig, outboxDir = config.outboxDir): MailSender {
  return config.smtp ? createSmtpSender(config.smtp) : createOutboxSender(outboxDir);
}

function addresses(list: Array<string | Mail.Address> | undefined): string[] {
  return (list ?? []).flatMap((a) => (typeof a === 'string' ? [a] : a.address ? [a.address] : []));
}

/** Sends through an SMTP relay (a new connection per message; reports are few). */
export function createSmtpSender(smtp: NonNullable<EmailConfig['smtp']>): MailSender {
  const transport = nodemailer().createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTls,
    ...(smtp.user && smtp.password ? { auth: { user: smtp.user, pass: smtp.password } } : {}),
    tls: { rejectUnauthorized: !smtp.allowSelfSigned },
    connectionTimeout: smtp.timeoutMs,
    greetingTimeout: smtp.timeoutMs,
    socketTimeout: smtp.timeoutMs,
    // nodemailer would log the conversation (AUTH included) if asked; it is never asked.
    logger: false,
  });
  return {
    kind: 'smtp',
    delivered: () => Promise.resolve(undefined),
    async send(_key, message) {
      const info = await transport.sendMail(message);
      return {
        messageId: info.messageId,
        accepted: addresses(info.accepted),
        rejected: addresses(info.rejected),
        response: info.response,
      };
    },
    close: () => transport.close(),
  };
}

/** The outbox file of a delivery key. */
export function outboxPath(dir: string, deliveryKey: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(deliveryKey)) throw new Error(`not a safe outbox file name: ${deliveryKey}`);
  return join(dir, `${deliveryKey}.eml`);
}

/** Writes each message to `<dir>/<delivery key>.eml`, whole or not at all (written aside, then renamed). */
export function createOutboxSender(dir: string): MailSender {
  const transport = nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    kind: 'outbox',
    async delivered(key) {
      try {
        await access(outboxPath(dir, key));
        return true;
      } catch {
        return false;
      }
    },
    async send(key, message) {
      const info = await transport.sendMail(message);
      const path = outboxPath(dir, key);
      const aside = `${path}.${randomBytes(4).toString('hex')}.tmp`;
      await mkdir(dir, { recursive: true });
      try {
        await writeFile(aside, info.message);
        await rename(aside, path);
      } catch (err) {
        await rm(aside, { force: true });
        throw err;
      }
      return {
        messageId: info.messageId,
        accepted: addresses(info.envelope.to),
        rejected: [],
        response: path,
      };
    },
    close: () => transport.close(),
  };
}
