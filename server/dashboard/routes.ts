// The dashboard on callsync's HTTP server: /dashboard (overview), /dashboard/calls (search and a
// call's page), /dashboard/quarantine (with retry), behind a password login.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordingAudio } from '../../connectors/postgres';
import {
  quarantineRetryWorkflow,
  quarantineRetryWorkflowId,
  type QuarantineRetryResult,
} from '../../contracts';
import { describeError } from '../../lib/describe-error';
import { DashboardSessions, passwordMatches, readCookie, SESSION_COOKIE } from './auth';
import { callListPage, callPage, type CallListQuery } from './calls-page';
import type { DashboardOptions } from './context';
import { esc, page, query } from './html';
import { overviewPage } from './overview-page';
import { quarantinePage, type QuarantineQuery } from './quarantine-page';

export type { DashboardOptions } from './context';

/** A wrong password waits this long before its answer, to slow guessing. */
const REFUSAL_DELAY_MS = 400;

function loginPage(error: string | undefined, next: string): string {
  return page(
    'Log in',
    null,
    `<form class="card login" method="post" action="/dashboard/login"><h1>Log in to the dashboard</h1>
${error ? `<div class="flash bad" id="login-error">${esc(error)}</div>` : ''}
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" autofocus required>
<input type="hidden" name="next" value="${esc(next)}"><button class="primary" type="submit">Log in</button></form>`,
  );
}

/** Only a path of the dashboard itself is a place to go back to after logging in. */
const safeNext = (next: unknown) =>
  typeof next === 'string' && /^\/dashboard(\/|\?|$)/.test(next) && !next.startsWith('//')
    ? next
    : '/dashboard';

const html = (reply: FastifyReply, body: string, code = 200) =>
  reply
    .code(code)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);

/** A workflow failure's message with its causes' (the activity's error is the useful part). */
function failureChain(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e !== undefined && parts.length < 4; e = (e as { cause?: unknown }).cause) {
    parts.push(describeError(e));
    if (!(e instanceof Error)) break;
  }
  return parts.join(': ');
}

/** The host of an Origin header, or null when it is not a URL. */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** A form's fields (application/x-www-form-urlencoded, parsed in this scope). */
const form = (req: FastifyRequest) => (req.body ?? {}) as Record<string, string | undefined>;

export async function registerDashboardRoutes(app: FastifyInstance, opts: DashboardOptions): Promise<void> {
  const sessions = new DashboardSessions(opts.password, opts.sessionHours * 3_600_000);
  const log = opts.logger.child({ module: 'dashboard' });
  const secure = opts.secureCookies ?? false;
  const archiveRoot = resolve(opts.archiveDir);

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.addHook('onRequest', async (req, reply) => {
      const path = req.url.split('?')[0]!;
      // A form posted from another site is refused (the cookie is SameSite=Strict as well).
      if (req.method === 'POST') {
        const origin = req.headers.origin;
        if (origin && origin !== 'null' && originHost(origin) !== req.headers.host) {
          return reply.code(403).send({ error: 'cross-site request refused' });
        }
      }
      if (path === '/dashboard/login') return;
      if (sessions.valid(readCookie(req.headers.cookie, SESSION_COOKIE))) return;
      if (req.method === 'GET') return reply.redirect(`/dashboard/login${query({ next: req.url })}`, 303);
      return reply.code(401).send({ error: 'log in first' });
    });

    scope.get('/dashboard/login', async (req, reply) =>
      html(reply, loginPage(undefined, safeNext((req.query as { next?: string }).next))),
    );
    scope.post('/dashboard/login', async (req, reply) => {
      const { password, next } = form(req);
      if (typeof password === 'string' && passwordMatches(password, opts.password)) {
        log.info({ ip: req.ip }, 'dashboard login');
        return reply
          .header('set-cookie', sessions.cookie(sessions.issue(), secure))
          .redirect(safeNext(next), 303);
      }
      log.warn({ ip: req.ip }, 'dashboard login refused: wrong password');
      await new Promise((r) => setTimeout(r, REFUSAL_DELAY_MS));
      return html(reply, loginPage('Wrong password.', safeNext(next)), 401);
    });
    scope.post('/dashboard/logout', async (_req, reply) =>
      reply.header('set-cookie', sessions.cookie('', secure)).redirect('/dashboard/login', 303),
    );

    scope.get('/dashboard', async (_req, reply) => html(reply, await overviewPage(opts)));
    scope.get('/dashboard/calls', async (req, reply) =>
      html(reply, await callListPage(opts, req.query as CallListQuery)),
    );
    scope.get('/dashboard/calls/:account/:id', async (req, reply) => {
      const { account, id } = req.params as { account: string; id: string };
      const body = /^\d{1,18}$/.test(id) ? await callPage(opts, account, Number(id)) : undefined;
      return body ? html(reply, body) : html(reply, page('Not found', 'calls', '<h1>No such call</h1>'), 404);
    });
    scope.get('/dashboard/audio/:account/:id', async (req, reply) => {
      const { account, id } = req.params as { account: string; id: string };
      if (!opts.accounts.includes(account) || !/^\d{1,18}$/.test(id)) return reply.code(404).send();
      const audio = await recordingAudio(opts.db, account, Number(id));
      if (!audio?.audio_uri?.startsWith('file:'))
        return reply.code(404).send({ error: 'audio not in the local archive' });
      const file = resolve(fileURLToPath(audio.audio_uri));
      // Only files under the configured archive directory are served.
      if (!file.startsWith(archiveRoot + sep)) return reply.code(404).send();
      const size = (await stat(file).catch(() => null))?.size;
      if (size === undefined) return reply.code(404).send({ error: 'archived file missing' });
      return reply
        .header('content-type', 'audio/mpeg')
        .header('content-length', size)
        .header('cache-control', 'private, max-age=3600')
        .send(createReadStream(file));
    });

    scope.get('/dashboard/quarantine', async (req, reply) =>
      html(reply, await quarantinePage(opts, req.query as QuarantineQuery)),
    );
    scope.post('/dashboard/quarantine/retry', async (req, reply) => {
      const { account, stream, recordId } = form(req);
      const back = (params: Record<string, string | number | undefined>) =>
        reply.redirect(`/dashboard/quarantine${query({ stream, ...params })}`, 303);
      if (!account || !opts.accounts.includes(account) || !stream || !/^[a-z_]{1,40}$/.test(stream))
        return back({ error: 'account and stream must name a configured account and a stream' });
      if (!opts.temporal) return back({ error: 'this server runs without Temporal' });
      const workflowId = quarantineRetryWorkflowId(account, stream, randomBytes(6).toString('hex'));
      try {
        const handle = await opts.temporal.client.workflow.start(quarantineRetryWorkflow, {
          taskQueue: opts.temporal.taskQueue,
          workflowId,
          args: [{ account, stream, ...(recordId ? { recordIds: [recordId] } : {}) }],
        });
        const wait = new Promise<'running'>((r) =>
          setTimeout(() => r('running'), opts.retryWaitMs ?? 60_000).unref(),
        );
        const result = await Promise.race<QuarantineRetryResult | 'running'>([handle.result(), wait]);
        if (result === 'running') return back({ running: workflowId });
        log.info(
          { workflowId, stored: result.stored, stillInvalid: result.stillInvalid },
          'quarantine retried',
        );
        return back({ stored: result.stored, still: result.stillInvalid, skipped: result.notRetryable });
      } catch (err) {
        log.warn({ workflowId, err }, 'quarantine retry failed');
        return back({ error: failureChain(err).slice(0, 300) });
      }
    });
  });
}
