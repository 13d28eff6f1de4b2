// Installing the HubSpot OAuth app for an account, from the dashboard (admins only):
// /dashboard/hubspot/install lists the accounts whose destination is an OAuth app and whether each is
// installed (the portal, never a token); /dashboard/hubspot/install/<account> sends the browser to
// HubSpot's consent page with a `state` that names the account and is signed with the session's own
// secret (its CSRF token), so a callback only completes in the session that started it, within ten
// minutes; /dashboard/hubspot/callback (the app's redirect URL) checks the state, exchanges the code,
// stores the tokens sealed under the account's key, prepares the portal (callsync_key, as a worker's
// start does), and says which portal is connected.
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VendorTokenStore } from '../../connectors/crm/vendor-token-store';
import { RenewingToken } from '../../connectors/crm/renewing-token';
import { HubSpotConnector } from '../../connectors/hubspot/hubspot-connector';
import {
  hubspotAuthorizeUrl,
  hubspotInstallKey,
  hubspotRefreshGrant,
  installHubSpotApp,
} from '../../connectors/hubspot/oauth';
import { listVendorTokenInstalls } from '../../connectors/postgres';
import type { Logger } from '../../lib/logger';
import { sameToken, type Viewer } from './auth';
import type { DashboardOptions, HubSpotInstallSettings } from './context';
import { esc, page, time } from './html';

const STATE_TTL_MS = 10 * 60_000;

/** The state for `account`'s install, signed with the session's secret. */
export function installState(sessionSecret: string, account: string, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({ a: account, t: now, n: randomBytes(9).toString('base64url') }),
  ).toString('base64url');
  return `${payload}.${stateMac(sessionSecret, payload)}`;
}

function stateMac(sessionSecret: string, payload: string): string {
  return createHmac('sha256', sessionSecret).update(`hubspot-install\0${payload}`).digest('base64url');
}

/** The account a state names, when this session signed it less than ten minutes ago; else null. */
export function accountOfState(sessionSecret: string, state: string, now = Date.now()): string | null {
  const [payload, mac] = state.split('.');
  if (!payload || !mac || !sameToken(mac, stateMac(sessionSecret, payload))) return null;
  try {
    const { a, t } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      a?: unknown;
      t?: unknown;
    };
    if (typeof a !== 'string' || typeof t !== 'number' || now - t > STATE_TTL_MS || t > now + 60_000)
      return null;
    return a;
  } catch {
    return null;
  }
}

/** What the routes borrow from routes.ts. */
export interface HubSpotInstallContext {
  opts: DashboardOptions;
  log: Logger;
  viewerOf(req: FastifyRequest): Viewer;
  view(req: FastifyRequest): DashboardOptions;
  html(reply: FastifyReply, body: string, code?: number): FastifyReply;
  refuse(req: FastifyRequest, reply: FastifyReply, code: 400 | 403, message: string): FastifyReply;
}

export function registerHubSpotInstallRoutes(
  scope: FastifyInstance,
  settings: HubSpotInstallSettings,
  ctx: HubSpotInstallContext,
): void {
  const { opts, log } = ctx;
  const store = new VendorTokenStore(opts.db, settings.box);
  const admin = (req: FastifyRequest, reply: FastifyReply) =>
    ctx.viewerOf(req).role === 'admin'
      ? undefined
      : ctx.refuse(req, reply, 403, 'Only an admin may install the HubSpot app.');
  const appOf = (req: FastifyRequest, account: string) =>
    ctx.viewerOf(req).accounts.includes(account) ? settings.apps[account] : undefined;

  scope.get('/dashboard/hubspot/install', async (req, reply) => {
    const refused = admin(req, reply);
    if (refused) return refused;
    const v = ctx.view(req);
    const installs = await listVendorTokenInstalls(opts.db, 'hubspot');
    const rows = v.accounts
      .filter((account) => settings.apps[account])
      .map((account) => {
        const { identity } = hubspotInstallKey(account, settings.apps[account]!.oauth.clientId);
        const install = installs.find((i) => i.identity === identity);
        const state = install
          ? `portal ${esc(install.details.hubId ?? '?')} (tokens renewed ${time(install.updatedAt)})`
          : 'not installed';
        return `<tr><td>${esc(account)}</td><td class="install-state">${state}</td><td><a href="/dashboard/hubspot/install/${encodeURIComponent(account)}">${install ? 'Install again' : 'Install'}</a></td></tr>`;
      });
    const body = `<h1>HubSpot app</h1>
<p>Installing sends you to HubSpot to choose the portal and approve the app's scopes; HubSpot then sends you back here.</p>
<table><tr><th>Account</th><th>Installed</th><th></th></tr>${rows.join('') || '<tr><td colspan="3">No account uses a HubSpot OAuth app.</td></tr>'}</table>`;
    return ctx.html(reply, page('HubSpot app', 'overview', body, v.session));
  });

  scope.get('/dashboard/hubspot/install/:account', async (req, reply) => {
    const refused = admin(req, reply);
    if (refused) return refused;
    const { account } = req.params as { account: string };
    const app = appOf(req, account);
    if (!app)
      return ctx.refuse(req, reply, 400, `account ${account} has no HubSpot OAuth app you may install`);
    return reply.redirect(hubspotAuthorizeUrl(app.oauth, installState(ctx.viewerOf(req).csrf, account)), 303);
  });

  scope.get('/dashboard/hubspot/callback', async (req, reply) => {
    const refused = admin(req, reply);
    if (refused) return refused;
    const q = req.query as Record<string, unknown>;
    const state = typeof q.state === 'string' ? q.state : '';
    const account = accountOfState(ctx.viewerOf(req).csrf, state);
    if (account === null)
      return ctx.refuse(
        req,
        reply,
        400,
        'query parameter "state" is missing, expired or from another session: start the install again from /dashboard/hubspot/install',
      );
    const app = appOf(req, account);
    if (!app)
      return ctx.refuse(req, reply, 400, `account ${account} has no HubSpot OAuth app you may install`);
    if (typeof q.code !== 'string' || q.code.length === 0 || q.code.length > 2048) {
      const why =
        typeof q.error === 'string' ? `HubSpot said: ${q.error}` : 'query parameter "code" is missing';
      return ctx.refuse(req, reply, 400, `The install of account ${account} did not complete (${why}).`);
    }
    const user = ctx.viewerOf(req).username;
    let portal: string;
    try {
      portal = await installHubSpotApp(store, account, app, q.code);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ account, user, err: message }, 'HubSpot app install failed');
      return ctx.refuse(req, reply, 400, `The install of account ${account} failed: ${message}`);
    }
    log.info({ account, portal, user }, 'HubSpot app installed');
    try {
      // The portal gets what callsync writes (callsync_key) now: workers that started before the
      // install skipped it, and a missing scope shows here rather than on the first call.
      const tokens = new RenewingToken({
        store,
        key: hubspotInstallKey(account, app.oauth.clientId),
        refresh: hubspotRefreshGrant(app.basePath, app.oauth),
      });
      await new HubSpotConnector(app, { tokens, account }).prepare();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.warn({ account, portal, user, err: message }, 'HubSpot portal setup failed after the install');
      return ctx.refuse(
        req,
        reply,
        400,
        `HubSpot portal ${portal} is connected to account ${account}, but callsync cannot write there yet: ${message}. Give the app that permission and install again.`,
      );
    }
    const body = `<h1>HubSpot connected</h1><p id="installed">HubSpot portal ${esc(portal)} is connected to account ${esc(account)}. Workers use it from their next request.</p>
<p><a href="/dashboard/hubspot/install">Back to the HubSpot app</a></p>`;
    return ctx.html(reply, page('HubSpot connected', 'overview', body, ctx.view(req).session));
  });
}
