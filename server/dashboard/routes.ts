// The dashboard on callsync's HTTP server: /dashboard (overview), /dashboard/calls (search and a
// call's page), /dashboard/failures (failed call follow-ups, with retry: retry-routes.ts),
// /dashboard/quarantine (with retry), behind a log-in (users with a role and the
// accounts they may see; server/dashboard/auth.ts). Every page shows only the viewer's accounts and
// answers 403 for another's; every form carries a CSRF token; every answer carries security headers.
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
import {
  DashboardAuth,
  LOGIN_CSRF_COOKIE,
  loginCsrfCookie,
  newToken,
  readCookie,
  sameToken,
  SESSION_COOKIE,
  sessionCookie,
  type Viewer,
} from './auth';
import { callListPage, callPage } from './calls-page';
import type { DashboardOptions } from './context';
import { csrfField, esc, page, query } from './html';
import { overviewPage } from './overview-page';
import { callListQuerySchema, callPageQuerySchema, parseQuery, quarantineQuerySchema } from './params';
import { quarantinePage } from './quarantine-page';
import { registerRetryRoutes } from './retry-routes';
import { registerHubSpotInstallRoutes } from './hubspot-install';

export type { DashboardOptions } from './context';

/** A wrong password waits this long before its answer, to slow guessing (the lockout stops it). */
const REFUSAL_DELAY_MS = 400;

/**
 * What every dashboard answer carries: no script, style only inline, media and images only from
 * here, never framed, no sniffing. Referrer-Policy stays same-origin: with no-referrer, browsers send
 * `Origin: null` on form posts.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; media-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

function loginPage(error: string | undefined, next: string, csrf: string, username = ''): string {
  return page(
    'Log in',
    null,
    `<form class="card login" method="post" action="/dashboard/login"><h1>Log in to the dashboard</h1>
${error ? `<div class="flash bad" id="login-error">${esc(error)}</div>` : ''}
<label for="username">Username</label><input id="username" name="username" autocomplete="username" value="${esc(username)}" autofocus required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
${csrfField(csrf)}<input type="hidden" name="next" value="${esc(next)}"><button class="primary" type="submit">Log in</button></form>`,
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
  const ttlMs = opts.sessionHours * 3_600_000;
  const lockMs = (opts.lockoutMinutes ?? 15) * 60_000;
  const auth = new DashboardAuth({
    db: opts.db,
    password: opts.password,
    accounts: opts.accounts,
    ttlMs,
    lockout: {
      user: { maxFailures: opts.loginMaxFailures ?? 5, windowMs: lockMs, lockMs },
      address: { maxFailures: opts.loginMaxFailuresPerAddress ?? 20, windowMs: lockMs, lockMs },
    },
  });
  const log = opts.logger.child({ module: 'dashboard' });
  // Secure whenever the browser reached us over HTTPS: TLS here, or a trusted proxy's X-Forwarded-Proto.
  const secure = (req: FastifyRequest) => opts.secureCookies === true || req.protocol === 'https';
  const archiveRoot = resolve(opts.archiveDir);
  const viewers = new WeakMap<FastifyRequest, Viewer>();
  const viewerOf = (req: FastifyRequest) => viewers.get(req)!;
  /** The pages' options for this request: only the viewer's accounts. */
  const view = (req: FastifyRequest): DashboardOptions => {
    const v = viewerOf(req);
    return {
      ...opts,
      accounts: v.accounts,
      // Temporal's counts are of every account: a viewer gets none ("–"), and starts no workflow.
      temporal: v.role === 'admin' ? opts.temporal : undefined,
      session: { username: v.username, role: v.role, csrf: v.csrf },
    };
  };
  const refuse = (req: FastifyRequest, reply: FastifyReply, code: 400 | 403, message: string) => {
    const v = viewers.get(req);
    const session = v && { username: v.username, role: v.role, csrf: v.csrf };
    const title = code === 400 ? 'Bad request' : 'Forbidden';
    return html(
      reply,
      page(title, 'overview', `<h1>${title}</h1><p id="refusal">${esc(message)}</p>`, session),
      code,
    );
  };
  const forbidden = (req: FastifyRequest, reply: FastifyReply, account: string) =>
    refuse(req, reply, 403, `You may not see account ${account}.`);

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    // A failure is logged, never shown: a database's error text says too much.
    scope.setErrorHandler((err, req, reply) => {
      const status = (err as { statusCode?: number }).statusCode ?? 500;
      if (status < 500) return reply.code(status).send({ error: 'bad request' });
      log.error({ err, path: req.url.split('?')[0] }, 'dashboard request failed');
      return reply.code(500).send({ error: 'internal error (see the server log)' });
    });
    scope.addHook('onSend', async (_req, reply, payload) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
      return payload;
    });
    scope.addHook('onRequest', async (req, reply) => {
      const path = req.url.split('?')[0]!;
      // A form posted from another site is refused at once (it would fail its CSRF token anyway).
      if (req.method === 'POST') {
        const origin = req.headers.origin;
        if (origin && origin !== 'null' && originHost(origin) !== req.headers.host) {
          return reply.code(403).send({ error: 'cross-site request refused' });
        }
      }
      if (path === '/dashboard/login') return;
      const viewer = await auth.session(readCookie(req.headers.cookie, SESSION_COOKIE));
      if (viewer) {
        viewers.set(req, viewer);
        return;
      }
      if (req.method === 'GET') return reply.redirect(`/dashboard/login${query({ next: req.url })}`, 303);
      return reply.code(401).send({ error: 'log in first' });
    });
    // Every form a logged-in user posts carries the session's CSRF token (Origin may be absent or null).
    scope.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || req.url.split('?')[0] === '/dashboard/login') return;
      const given = form(req)._csrf;
      if (!sameToken(typeof given === 'string' ? given : undefined, viewerOf(req).csrf))
        return reply.code(403).send({ error: 'missing or wrong CSRF token: reload the page and try again' });
    });

    scope.get('/dashboard/login', async (req, reply) => {
      const csrf = newToken();
      reply.header('set-cookie', loginCsrfCookie(csrf, secure(req)));
      return html(reply, loginPage(undefined, safeNext((req.query as { next?: unknown }).next), csrf));
    });
    scope.post('/dashboard/login', async (req, reply) => {
      const { username, password, next, _csrf } = form(req);
      if (
        !sameToken(
          typeof _csrf === 'string' ? _csrf : undefined,
          readCookie(req.headers.cookie, LOGIN_CSRF_COOKIE),
        )
      )
        return reply
          .code(403)
          .send({ error: 'missing or wrong CSRF token: reload the log-in page and try again' });
      const name = typeof username === 'string' ? username.trim().slice(0, 200) : '';
      const again = (status: number, message: string) => {
        const csrf = newToken();
        reply.header('set-cookie', loginCsrfCookie(csrf, secure(req)));
        return html(reply, loginPage(message, safeNext(next), csrf, name), status);
      };
      if (!name || typeof password !== 'string' || password.length > 1024)
        return again(400, 'Give a username and a password.');
      const result = await auth.login(name, password, req.ip);
      if (result.kind === 'ok') {
        log.info({ ip: req.ip, user: name, role: result.viewer.role }, 'dashboard login');
        return reply
          .header('set-cookie', [
            sessionCookie(result.token, ttlMs, secure(req)),
            loginCsrfCookie('', secure(req)).replace('Max-Age=3600', 'Max-Age=0'),
          ])
          .redirect(safeNext(next), 303);
      }
      if (result.kind === 'locked') {
        const minutes = Math.max(1, Math.ceil((result.until.getTime() - Date.now()) / 60_000));
        log.warn({ ip: req.ip, user: name, scope: result.scope }, 'dashboard login locked out');
        reply.header('retry-after', String(Math.ceil((result.until.getTime() - Date.now()) / 1000)));
        return again(
          429,
          `Too many failed log-ins ${result.scope === 'user' ? 'for this user' : 'from this address'}: ` +
            `log-in is locked for ${minutes} minute${minutes === 1 ? '' : 's'} (until ${result.until.toISOString().slice(11, 16)} UTC).`,
        );
      }
      log.warn({ ip: req.ip, user: name }, 'dashboard login refused: wrong username or password');
      await new Promise((r) => setTimeout(r, REFUSAL_DELAY_MS));
      return again(401, 'Wrong username or password.');
    });
    scope.post('/dashboard/logout', async (req, reply) => {
      const v = viewerOf(req);
      await auth.logout(v.sessionId);
      log.info({ user: v.username }, 'dashboard logout');
      return reply
        .header('set-cookie', sessionCookie('', ttlMs, secure(req)))
        .redirect('/dashboard/login', 303);
    });

    scope.get('/dashboard', async (req, reply) => html(reply, await overviewPage(view(req))));
    scope.get('/dashboard/calls', async (req, reply) => {
      const q = parseQuery(callListQuerySchema, req.query);
      if (!q.ok) return refuse(req, reply, 400, q.message);
      const account = q.value.user ? q.value.user.slice(0, q.value.user.lastIndexOf(':')) : undefined;
      if (account !== undefined && !viewerOf(req).accounts.includes(account))
        return forbidden(req, reply, account);
      return html(reply, await callListPage(view(req), q.value));
    });
    scope.get('/dashboard/calls/:account/:id', async (req, reply) => {
      const { account, id } = req.params as { account: string; id: string };
      if (!viewerOf(req).accounts.includes(account)) return forbidden(req, reply, account);
      if (!/^\d{1,15}$/.test(id))
        return refuse(req, reply, 400, 'path parameter "id" must be a call id (digits)');
      const q = parseQuery(callPageQuerySchema, req.query);
      if (!q.ok) return refuse(req, reply, 400, q.message);
      const body = await callPage(view(req), account, Number(id), q.value);
      return body
        ? html(reply, body)
        : html(reply, page('Not found', 'calls', '<h1>No such call</h1>', view(req).session), 404);
    });
    registerRetryRoutes(scope, { opts, log, viewerOf, view, html, refuse });
    if (opts.hubspot)
      registerHubSpotInstallRoutes(scope, opts.hubspot, { opts, log, viewerOf, view, html, refuse });
    scope.get('/dashboard/audio/:account/:id', async (req, reply) => {
      const { account, id } = req.params as { account: string; id: string };
      if (!viewerOf(req).accounts.includes(account))
        return reply.code(403).send({ error: 'not your account' });
      if (!/^\d{1,15}$/.test(id))
        return reply.code(400).send({ error: 'path parameter "id" must be digits' });
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

    scope.get('/dashboard/quarantine', async (req, reply) => {
      const q = parseQuery(quarantineQuerySchema, req.query);
      if (!q.ok) return refuse(req, reply, 400, q.message);
      if (q.value.account && !viewerOf(req).accounts.includes(q.value.account))
        return forbidden(req, reply, q.value.account);
      return html(reply, await quarantinePage(view(req), q.value));
    });
    scope.post('/dashboard/quarantine/retry', async (req, reply) => {
      const { account, stream, recordId } = form(req);
      const v = viewerOf(req);
      if (v.role !== 'admin') return refuse(req, reply, 403, 'Only an admin may retry quarantined records.');
      if (account && opts.accounts.includes(account) && !v.accounts.includes(account))
        return forbidden(req, reply, account);
      const back = (params: Record<string, string | number | undefined>) =>
        reply.redirect(`/dashboard/quarantine${query({ stream, ...params })}`, 303);
      if (!account || !v.accounts.includes(account) || !stream || !/^[a-z_]{1,40}$/.test(stream))
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
