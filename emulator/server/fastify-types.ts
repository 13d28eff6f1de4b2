// Typing of what the emulator attaches to fastify: per-route config and the caller's identity.
import type { AuthMode, Identity } from './route-def';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'METHOD /template' of an API route (absent on control and CORS routes). */
    routeKey?: string;
    /** How the API route authenticates. */
    auth?: AuthMode;
  }
  interface FastifyRequest {
    /** The authenticated caller, set by the API gate hook. */
    identity: Identity | undefined;
  }
}

export {};
