// Clock control: read, advance and set the emulator's time (token idling, 2FA code validity, new records).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EmulatorContext } from '../context';
import { validate } from '../validation';
import { controlRoute } from './control-route';

const advanceBody = z.strictObject({ seconds: z.number() });

const setBody = z.strictObject({
  /** 'YYYY-MM-DD HH:MM:SS' (UTC) or an ISO 8601 timestamp. */
  now: z
    .string()
    .transform(
      (s) => new Date(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(s) ? `${s.replace(' ', 'T')}Z` : s),
    )
    .refine((d) => !Number.isNaN(d.getTime()), 'must be a date, YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601'),
});

function clockState(ctx: EmulatorContext): { now: string; epoch_ms: number } {
  return { now: ctx.clock.nowString(), epoch_ms: ctx.clock.now().getTime() };
}

/** GET /_emulator/clock, POST /_emulator/clock {now}, POST /_emulator/clock/advance {seconds}. */
export function registerClockControl(app: FastifyInstance, ctx: EmulatorContext): void {
  controlRoute(app, 'GET', '/clock', () => ({ body: clockState(ctx) }));
  controlRoute(app, 'POST', '/clock', (req) => {
    ctx.clock.set(validate(setBody, req.body).now);
    return { body: clockState(ctx) };
  });
  controlRoute(app, 'POST', '/clock/advance', (req) => {
    ctx.clock.advance(validate(advanceBody, req.body).seconds * 1000);
    return { body: clockState(ctx) };
  });
}
