// API listing control: GET, POST and DELETE /_emulator/api (the order of collections a request gives no
// `sort` for, and a cap on page length).
import type { FastifyInstance } from 'fastify';
import { apiSettingsBody, applyApiSettings, DEFAULT_API_SETTINGS } from '../api-settings';
import type { EmulatorContext } from '../context';
import { validate } from '../validation';
import { controlRoute } from './control-route';

/** Registers the API settings endpoints (POST changes the fields given, DELETE restores the defaults). */
export function registerApiControl(app: FastifyInstance, ctx: EmulatorContext): void {
  controlRoute(app, 'GET', '/api', () => ({ body: { ...ctx.api } }));
  controlRoute(app, 'POST', '/api', (req) => {
    ctx.api = applyApiSettings(ctx.api, validate(apiSettingsBody, req.body ?? {}));
    return { body: { ...ctx.api } };
  });
  controlRoute(app, 'DELETE', '/api', () => {
    ctx.api = { ...DEFAULT_API_SETTINGS };
    return { body: { ...ctx.api } };
  });
}
