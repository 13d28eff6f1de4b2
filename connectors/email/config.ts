import { z } from 'zod';
import { secret } from '../../config/secret';

/** An SMTP relay that sends the report e-mails (nodemailer's SMTP transport). */
export const smtpConfigSchema = z
  .object({
    /** Host name of the SMTP server. */
    host: z.string().min(1),
    /** Port: 587 (submission, STARTTLS), 465 (implicit TLS) or 25. */
    port: z.number().int().min(1).max(65535).default(587),
    /** Implicit TLS from the first byte (port 465); false upgrades with STARTTLS when offered. */
    secure: z.boolean().default(false),
    /** Refuse to send unless the server upgrades to TLS with STARTTLS (ignored when `secure`). */
    requireTls: z.boolean().default(false),
    /** Login user; none for a relay that trusts the network. */
    user: z.string().min(1).optional(),
    /** Login password; a secret (`{ "env" }` or `{ "file" }`), no default, never logged. */
    password: secret().optional(),
    /** Accept the server's certificate without verifying it (test relays with self-signed certificates only). */
    allowSelfSigned: z.boolean().default(false),
    /** How long to wait for the connection, greeting and each command, in milliseconds. */
    timeoutMs: z.number().int().positive().default(30_000),
  })
  .refine((c) => (c.user === undefined) === (c.password === undefined), {
    message: 'give both user and password, or neither',
    path: ['password'],
  });

/** How report e-mails go out: SMTP when configured, otherwise `.eml` files in a local outbox. */
export const emailConfigSchema = z.object({
  /** The SMTP relay; without it every message is written to `outboxDir` instead of being sent. */
  smtp: smtpConfigSchema.optional(),
  /** Directory of the local outbox (one `.eml` file per message, named by its delivery key). */
  outboxDir: z.string().min(1).default('.data/outbox'),
  /** Sender address, e.g. `"Call reports" <reports@example.com>`. */
  from: z.string().min(3).default('callsync <reports@callsync.invalid>'),
  /** Reply-To address, when replies should go somewhere other than `from`. */
  replyTo: z.string().min(3).optional(),
  /** Domain of the Message-IDs callsync makes (the right-hand side of `<key@domain>`). */
  messageIdDomain: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'a domain name such as reports.example.com')
    .default('callsync.invalid'),
});

export type SmtpConfig = z.infer<typeof smtpConfigSchema>;
export type EmailConfig = z.infer<typeof emailConfigSchema>;
