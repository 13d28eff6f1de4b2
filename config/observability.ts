// Settings of what operators look through: the codec endpoint the Temporal UI and CLI decrypt
// histories with, and the Prometheus metrics ports.
import { z } from 'zod';
import { secret } from './secret';

/** `server.codec`: Temporal's remote codec endpoint on callsync's server (/codec/encode, /codec/decode). */
export const codecEndpointSchema = z
  .object({
    /**
     * Bearer token the UI (Data Encoder settings) or CLI (`--codec-auth "Bearer …"`) must send; a secret.
     * Without one the endpoint is off (`npm start` generates one).
     */
    token: secret(z.string().min(16, 'must be at least 16 characters')).optional(),
    /** A file holding the token (first line), instead of `token` (`token: { "file": … }` does the same); `npm start` generates one. */
    tokenFile: z.string().min(1).optional(),
    /**
     * Host names (no port) the endpoint answers under besides localhost, 127.0.0.1 and ::1, e.g. the
     * server's name behind a reverse proxy; any other Host header is refused (DNS rebinding).
     */
    hosts: z.array(z.string().min(1)).default([]),
    /** Browser origins allowed to call the endpoint: the Temporal UI's address. */
    corsOrigins: z.array(z.url()).default(['http://localhost:8233', 'http://127.0.0.1:8233']),
  })
  .refine((c) => !(c.token && c.tokenFile), {
    message: 'give token or tokenFile, not both',
    path: ['tokenFile'],
  });

/** `metrics`: Prometheus endpoints (docs/operations.md "Metrics"). */
export const metricsConfigSchema = z
  .object({
    /**
     * Serve the server's callsync_* metrics at /metrics: on `serverPort` when set, else on the
     * receiver's port behind `token`; with neither they are not served (the receiver's port is public).
     */
    enabled: z.boolean().default(true),
    /** Port of the server's own /metrics (on `host`; 0 picks a free one), apart from the public receiver port. */
    serverPort: z.number().int().min(0).max(65535).optional(),
    /** Bearer token every scrape must carry (Prometheus `authorization.credentials_file`); a secret. */
    token: secret(z.string().min(16, 'must be at least 16 characters')).optional(),
    /** A file holding the token (first line), instead of `token` (`token: { "file": … }` does the same). */
    tokenFile: z.string().min(1).optional(),
    /** Port of a worker's own callsync_* metrics (a worker has no HTTP server otherwise); off when absent. */
    workerPort: z.number().int().min(0).max(65535).optional(),
    /** host:port where the worker's Temporal SDK serves its temporal_* metrics; off when absent. */
    temporalSdkBindAddress: z
      .string()
      .regex(/^[^:]+:\d+$/, 'must be host:port, e.g. 0.0.0.0:9464')
      .optional(),
    /** Interface the metrics ports (worker's, server's) listen on. */
    host: z.string().default('127.0.0.1'),
  })
  .refine((m) => !(m.token && m.tokenFile), {
    message: 'give token or tokenFile, not both',
    path: ['tokenFile'],
  });

/** `worker`: settings of a `callsync worker` process (docs/operations.md "Health checks"). */
export const workerConfigSchema = z.object({
  /**
   * Port of the worker's /healthz and /readyz; 0 (the default) picks a free one, logged at start, so
   * two workers on one machine never collide. The image sets 8789 (CALLSYNC_WORKER_HEALTH_PORT).
   */
  healthPort: z.number().int().min(0).max(65535).default(0),
  /** Interface the health port listens on (0.0.0.0 for a probe from outside, e.g. Kubernetes). */
  healthHost: z.string().min(1).default('127.0.0.1'),
});

export type WorkerConfig = z.infer<typeof workerConfigSchema>;
export type CodecEndpointConfig = z.infer<typeof codecEndpointSchema>;
export type MetricsConfig = z.infer<typeof metricsConfigSchema>;

/** `server.dashboard`: the operators' pages on callsync's server (docs/operations.md "Dashboard"). */
export const dashboardConfigSchema = z
  .object({
    /** Serve the dashboard at /dashboard. */
    enabled: z.boolean().default(true),
    /**
     * The bootstrap admin's password (username `admin`; a secret); more users come from `callsync users add`.
     * Without it (or passwordFile) the dashboard is off on loopback and the server refuses to start elsewhere.
     */
    password: secret(z.string().min(12, 'must be at least 12 characters')).optional(),
    /** A file holding the password (first line), instead of `password` (`password: { "file": … }` does the same); `npm start` generates one. */
    passwordFile: z.string().min(1).optional(),
    /** Failed log-ins for one username within lockoutMinutes that lock it out (from every address). */
    loginMaxFailures: z.number().int().min(1).max(100).default(5),
    /** Failed log-ins from one address (any usernames) within lockoutMinutes that lock the address out. */
    loginMaxFailuresPerAddress: z.number().int().min(1).max(1000).default(20),
    /** How long a lockout lasts (and the window its failures are counted in), in minutes. */
    lockoutMinutes: z
      .number()
      .positive()
      .max(24 * 60)
      .default(15),
    /** How long a login lasts, in hours. */
    sessionHours: z
      .number()
      .positive()
      .max(24 * 30)
      .default(12),
  })
  .refine((d) => !(d.password && d.passwordFile), {
    message: 'give password or passwordFile, not both',
    path: ['passwordFile'],
  });

export type DashboardConfig = z.infer<typeof dashboardConfigSchema>;
