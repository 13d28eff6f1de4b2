import { setTimeout as delay } from 'node:timers/promises';
import { silentLogger, type Logger } from '../../lib/logger';
import type { RequestLimiter } from '../../lib/rate-limiter';
import { platformClientConfigSchema, type PlatformClientConfigInput } from './config';
import { AuthSession, type TwoFactorCodeProvider } from './core/auth';
import { PlatformCore, type RequestEvent } from './core/http-core';
import { createAuthResource } from './resources/auth';
import { createBeyondSpecResource } from './resources/beyond-spec';
import { createCallMeBackResource } from './resources/callmeback';
import { createCallsResource } from './resources/calls';
import { createCustomerResource } from './resources/customer';
import { createHistoryResource } from './resources/history';
import { createReportsResource } from './resources/reports';
import { createSettingsResource } from './resources/settings';
import { createStorageResource } from './resources/storage';

/** Configuration plus the injectable dependencies (all optional; tests inject fakes). */
export interface PlatformClientOptions extends PlatformClientConfigInput {
  /** Asked for the code when the login needs a second factor. */
  twoFactorCode?: TwoFactorCodeProvider;
  /** Called after every HTTP attempt (metrics, contract tests). */
  onRequest?: (event: RequestEvent) => void;
  /** Called when logging in (again, once a token expired) fails (metrics). */
  onLoginFailed?: (err: unknown) => void;
  /** Waited on before every request instead of the in-process `requestsPerSecond` limit. */
  limiter?: RequestLimiter;
  fetch?: typeof globalThis.fetch;
  logger?: Logger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** Builds the typed platform client: one core and session, one object per spec module. */
export function createPlatformClient(options: PlatformClientOptions) {
  const config = platformClientConfigSchema.parse(options);
  const now = options.now ?? Date.now;
  const logger = (options.logger ?? silentLogger).child({ component: 'platform-client' });
  const core = new PlatformCore({
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    maxRetries: config.maxRetries,
    maxRetryAfterMs: config.maxRetryAfterMs,
    requestsPerSecond: config.requestsPerSecond,
    burst: config.burst,
    pageSize: config.pageSize,
    fetch: options.fetch ?? globalThis.fetch,
    logger,
    now,
    sleep: options.sleep ?? ((ms) => delay(ms)),
    random: options.random ?? Math.random,
    onRequest: options.onRequest,
    limiter: options.limiter,
  });
  const session = new AuthSession(core, {
    credentials: config.credentials,
    keepAliveMs: config.keepAliveMs,
    tokenIdleLifetimeMs: config.tokenIdleLifetimeMs,
    twoFactorCode: options.twoFactorCode,
    now,
    logger,
    onLoginFailed: options.onLoginFailed,
  });
  core.useSession(session);
  return {
    core,
    /** Login state: `login()`, `keepAlive()`, `logout()`, `currentUserId`. */
    session,
    auth: createAuthResource(core, session),
    calls: createCallsResource(core),
    storage: createStorageResource(core),
    customer: createCustomerResource(core),
    history: createHistoryResource(core),
    callMeBack: createCallMeBackResource(core),
    settings: createSettingsResource(core),
    reports: createReportsResource(core),
    /** Endpoints beyond the spec that the platform's own clients use (BEYOND_SPEC_ENDPOINTS). */
    beyondSpec: createBeyondSpecResource(core),
    /** Logs a password session out (idempotent); the client must not be used afterwards. */
    close: () => session.close(),
  };
}

/** The typed platform client. */
export type PlatformClient = ReturnType<typeof createPlatformClient>;
