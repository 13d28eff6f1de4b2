// The dashboard's failed call follow-ups: the list (/dashboard/failures) and the Retry forms on it
// and on a call's page. A retry goes through activities/call-failure-retry.ts, so it happens once
// however often a form is sent; the answer goes back to the page the form was on, which shows the
// retry's state. Only an admin retries, and only a failure of an account they see.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { retryCallFailure } from '../../activities/call-failure-retry';
import { CALL_LIFECYCLE_TYPE, callFailureById } from '../../connectors/postgres';
import type { Logger } from '../../lib/logger';
import type { Viewer } from './auth';
import type { DashboardOptions } from './context';
import { failuresPage } from './failures-page';
import { query } from './html';
import { callPageQuerySchema, parseQuery } from './params';

/** What the routes borrow from routes.ts: the options, the request's viewer and the answers. */
export interface RetryRouteContext {
  opts: DashboardOptions;
  log: Logger;
  viewerOf(req: FastifyRequest): Viewer;
  view(req: FastifyRequest): DashboardOptions;
  html(reply: FastifyReply, body: string): FastifyReply;
  refuse(req: FastifyRequest, reply: FastifyReply, code: 400 | 403, message: string): FastifyReply;
}

export function registerRetryRoutes(scope: FastifyInstance, ctx: RetryRouteContext): void {
  const { opts, log } = ctx;

  /** Retries the posted failure and answers with a redirect to `back` plus the result. */
  const retry = async (req: FastifyRequest, reply: FastifyReply, back: (result: string) => string) => {
    const v = ctx.viewerOf(req);
    if (v.role !== 'admin') return ctx.refuse(req, reply, 403, 'Only an admin may retry a call follow-up.');
    const failureId = ((req.body ?? {}) as Record<string, string | undefined>).failure;
    const failure =
      failureId && /^\d{1,18}$/.test(failureId) ? await callFailureById(opts.db, failureId) : undefined;
    if (!failure || failure.workflow_type !== CALL_LIFECYCLE_TYPE)
      return ctx.refuse(req, reply, 400, 'field "failure" must name a failed call follow-up');
    if (!v.accounts.includes(failure.account))
      return ctx.refuse(req, reply, 403, `You may not see account ${failure.account}.`);
    const go = (result: string) => reply.redirect(back(result), 303);
    if (!opts.temporal) return go('error');
    const { account, subject } = failure;
    try {
      const result = await retryCallFailure(
        { db: opts.db, client: opts.temporal.client, taskQueue: opts.temporal.taskQueue },
        { account, callId: Number(subject), by: `dashboard:${v.username}` },
      );
      log.info({ account, callId: subject, user: v.username, status: result.status }, 'call follow-up retry');
      return go(result.status);
    } catch (err) {
      log.warn({ account, callId: subject, err }, 'call follow-up retry failed to start');
      return go('error');
    }
  };

  scope.get('/dashboard/failures', async (req, reply) => {
    const q = parseQuery(callPageQuerySchema, req.query);
    if (!q.ok) return ctx.refuse(req, reply, 400, q.message);
    return ctx.html(reply, await failuresPage(ctx.view(req), q.value));
  });
  scope.post('/dashboard/failures/retry', (req, reply) =>
    retry(req, reply, (result) => `/dashboard/failures${query({ retry: result })}`),
  );
  scope.post('/dashboard/calls/:account/:id/retry', async (req, reply) => {
    const { account, id } = req.params as { account: string; id: string };
    if (!ctx.viewerOf(req).accounts.includes(account))
      return ctx.refuse(req, reply, 403, `You may not see account ${account}.`);
    if (!/^\d{1,15}$/.test(id))
      return ctx.refuse(req, reply, 400, 'path parameter "id" must be a call id (digits)');
    return retry(
      req,
      reply,
      (result) => `/dashboard/calls/${encodeURIComponent(account)}/${id}${query({ retry: result })}`,
    );
  });
}
