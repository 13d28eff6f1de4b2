// The webhook endpoints: POST /webhooks/:account/:secret (path token) and POST /webhooks/:account
// (Basic credentials `callsync:<secret>`). Authentication runs before the body is read, so a request
// without the secret is answered 401 and nothing of it is stored. A delivery is answered 2xx only
// once its row is committed to the inbox.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../lib/logger';
import type { CallsyncMetrics } from '../lib/metrics';
import { InboxRowRejected, type InboxEntry, type InboxWriter } from './inbox-writer';
import type { FastPath } from './fast-path';
import type { RejectedDelivery } from './rejected-store';
import { basicPassword, type WebhookAuthenticator } from './webhook-auth';
import { callIdOfEvent, parseWebhookBody, type BodyProblem } from '../connectors/platform/webhook-body';
import type { WebhookEvent } from '../connectors/platform/schemas/events';

/** Largest accepted webhook body; the spec's events are well under 2 KiB. */
export const DEFAULT_WEBHOOK_BODY_LIMIT = 64 * 1024;

export interface WebhookRoutesOptions {
  authenticate: WebhookAuthenticator;
  inbox: InboxWriter;
  /** Keeps a refused delivery for inspection. */
  recordRejected: (d: RejectedDelivery) => Promise<void>;
  logger: Logger;
  /** Bytes (default DEFAULT_WEBHOOK_BODY_LIMIT). */
  bodyLimit?: number;
  /** Counts deliveries and their latency (callsync_webhooks_*). */
  metrics?: CallsyncMetrics | undefined;
  /** Events that cannot wait for the relay (screen-pop), handed over once committed. */
  fastPath?: FastPath | undefined;
}

/** The outcome label of a webhook answer's status. */
export function webhookOutcome(status: number): 'accepted' | 'unauthorized' | 'invalid' | 'unavailable' {
  if (status < 300) return 'accepted';
  if (status === 401) return 'unauthorized';
  return status < 500 ? 'invalid' : 'unavailable';
}

interface WebhookParams {
  account: string;
  secret?: string;
}

/** The platform's error body. It never quotes the request's path: that may carry the secret. */
export function errorBody(message: string, errors: unknown[] = []): { message: string; errors: unknown[] } {
  return { message, errors };
}

/** The inbox row of a validated event. */
export function inboxEntry(account: string, webhook: WebhookEvent, body: string): InboxEntry {
  return {
    account,
    eventId: webhook.event.id,
    eventName: webhook.event.event_name,
    callId: callIdOfEvent(webhook),
    body,
  };
}

/** `make` called once per key (a metric's child per label value). */
function memo<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}

/** The event as the inbox stored it: the anonymised one for an erased person. */
export function storedEvent(webhook: WebhookEvent, entry: InboxEntry): WebhookEvent {
  if (!entry.suppressed) return webhook;
  return { ...webhook, event: JSON.parse(entry.body) as never };
}

/** Registers the webhook routes in their own scope (their body parser and errors stay local). */
export async function registerWebhookRoutes(app: FastifyInstance, opts: WebhookRoutesOptions): Promise<void> {
  const log = opts.logger;
  const bodyLimit = opts.bodyLimit ?? DEFAULT_WEBHOOK_BODY_LIMIT;
  await app.register(async (scope) => {
    // The raw text is needed as it came (it is stored, and kept when refused): no JSON parser here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, body));

    scope.addHook('onRequest', async (req: FastifyRequest<{ Params: WebhookParams }>, reply) => {
      const presented = req.params.secret ?? basicPassword(req.headers.authorization);
      if (!opts.authenticate(req.params.account, presented)) {
        log.warn(
          { account: req.params.account, ip: req.ip },
          'webhook refused: unknown account or wrong secret',
        );
        // Connection: close ends the socket once answered, so a client still sending a body it
        // had no right to send is cut off at once rather than read to its end.
        await reply
          .code(401)
          .header('www-authenticate', 'Basic realm="callsync webhooks"')
          .header('connection', 'close')
          .send(errorBody('Unauthorized: unknown account or wrong webhook secret'));
      }
    });

    const metrics = opts.metrics;
    if (metrics) {
      // Each label set's child is looked up once: prom-client hashes a label object on every call,
      // which cost a delivery about 14 µs of the receiver's CPU (bench:webhooks).
      const durationOf = memo((outcome: string) => metrics.webhookDuration.labels({ outcome }));
      const receivedOf = memo((account: string) => metrics.webhooksReceived.labels({ account }));
      scope.addHook('onResponse', (req: FastifyRequest<{ Params: WebhookParams }>, reply, done) => {
        const outcome = webhookOutcome(reply.statusCode);
        durationOf(outcome).observe(reply.elapsedTime / 1000);
        // Only an authenticated request names its account: refused ones must not mint label values.
        const account = outcome === 'unauthorized' ? '(unauthenticated)' : req.params.account;
        if (outcome === 'accepted') receivedOf(account).inc();
        else if (outcome !== 'unavailable') metrics.webhooksRejected.inc({ account, reason: outcome });
        done();
      });
    }

    scope.setErrorHandler((err: FastifyError, _req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return reply.code(413).send(errorBody(`Request body is larger than ${bodyLimit} bytes`));
      }
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 500) log.error({ err }, 'webhook handler failed');
      return reply.code(status).send(errorBody(status === 500 ? 'Internal error' : err.message));
    });

    const handler = async (req: FastifyRequest<{ Params: WebhookParams }>, reply: FastifyReply) => {
      const account = req.params.account;
      const text = typeof req.body === 'string' ? req.body : '';
      const refuse = async (reason: string, problems: BodyProblem[]) => {
        log.warn({ account, reason }, 'webhook refused: bad body');
        await opts
          .recordRejected({
            account,
            reason,
            body: text,
            headers: req.headers,
            // Either form of the secret, so that a header quoting it elsewhere is blanked too.
            secret: req.params.secret ?? basicPassword(req.headers.authorization),
          })
          .catch((err: unknown) => log.error({ err, account }, 'could not keep a refused webhook'));
        return reply.code(400).send(errorBody(`Invalid webhook body: ${reason}`, problems));
      };
      const parsed = parseWebhookBody(text);
      if (!parsed.ok) return refuse(parsed.reason, parsed.problems);
      // The test event only proves the URL works; it is acknowledged and not stored.
      if (parsed.test) return reply.code(200).send({ status: 'ok', test: true });
      try {
        const { outcome, entry } = await opts.inbox.store(inboxEntry(account, parsed.event, text));
        // elapsedTime runs from the request's first byte: when the event reached the receiver. The
        // fast path gets the event as stored: an erased person's comes anonymised (docs/privacy.md "Erasure").
        const handed = storedEvent(parsed.event, entry);
        opts.fastPath?.(account, handed, Date.now() - reply.elapsedTime, entry.suppressed === true);
        return reply.code(200).send({ status: outcome });
      } catch (err) {
        if (err instanceof InboxRowRejected) {
          return refuse(`body: cannot be stored (${err.message})`, [{ field: 'body', message: err.message }]);
        }
        log.error({ err, account }, 'webhook inbox commit failed');
        return reply
          .code(503)
          .header('retry-after', '1')
          .send(errorBody('Service unavailable: the event could not be stored; deliver it again'));
      }
    };
    scope.post('/webhooks/:account/:secret', handler);
    scope.post('/webhooks/:account', handler);
  });
}
