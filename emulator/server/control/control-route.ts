// Control endpoints live under /_emulator/: plain JSON, no platform authentication, never faulted or counted.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Path prefix of the control endpoints. */
export const CONTROL_PREFIX = '/_emulator';

/** What a control handler answers: a JSON body (200 unless a status is given), or nothing (204). */
export type ControlAnswer = { status?: number; body?: unknown };

/** Registers one control endpoint. */
export function controlRoute(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  handler: (req: FastifyRequest) => ControlAnswer | Promise<ControlAnswer>,
): void {
  app.route({
    method,
    url: `${CONTROL_PREFIX}${path}`,
    handler: async (req, reply) => {
      const { status, body } = await handler(req);
      if (body === undefined) return reply.code(status ?? 204).send();
      return reply.code(status ?? 200).send(body);
    },
  });
}

/** Query string values as strings (the last of repeated ones). */
export function queryValue(req: FastifyRequest, name: string): string | undefined {
  const v = (req.query as Record<string, unknown>)[name];
  const last: unknown = Array.isArray(v) ? (v as unknown[]).at(-1) : v;
  return typeof last === 'string' ? last : undefined;
}

/** Path parameter values. */
export function pathParam(req: FastifyRequest, name: string): string {
  return (req.params as Record<string, string>)[name] ?? '';
}
