import { z } from 'zod';
import { googleCredentialsSchema } from '../google/credentials-config';

/**
 * Callbacks in Google Tasks, for teams without a CRM: callback tasks go to Google Tasks, call logs
 * and contacts stay in the warehouse (the built-in destination), and calls still reach the warehouse.
 */
export const googleTasksConfigSchema = z
  .object({
    type: z.literal('google-tasks'),
    /**
     * The service account (or application default credentials); `subject` is the Workspace mailbox
     * whose Tasks hold the lists (domain-wide delegation). Without it a service account would write
     * into its own Tasks, which no person can see, so the worker refuses to start.
     */
    credentials: googleCredentialsSchema.prefault({}),
    /**
     * How each assignee gets their tasks: `list` puts one list per assignee ("Callbacks – ann@…") in
     * the Tasks of `credentials.subject`; `delegate` impersonates the assignee by domain-wide
     * delegation (Workspace), so each task lands in the assignee's own Google Tasks (unassigned ones
     * in `subject`'s).
     */
    perUser: z.enum(['list', 'delegate']).default('list'),
    /** Title of the lists callsync finds or creates (created once and recorded). */
    listTitle: z.string().trim().min(1).max(100).default('Callbacks'),
    /**
     * Existing tasklist ids by platform user id or e-mail, for users whose tasks go to a list of your
     * choosing; other users get a list found or created by title.
     */
    tasklists: z
      .record(z.string().min(1), z.string().min(1))
      .default({})
      .transform((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k.trim().toLowerCase(), v]))),
    /** Tasks API origin; only tests point it elsewhere. */
    rootUrl: z.url().default('https://tasks.googleapis.com'),
  })
  // Delegation impersonates each assignee, which a self-signed JWT cannot do (credentials.ts).
  .refine((c) => !(c.perUser === 'delegate' && c.credentials.selfSignedJwt), {
    message:
      'perUser "delegate" cannot be used with credentials.selfSignedJwt (Google takes no delegation from self-signed JWTs)',
    path: ['perUser'],
  });

export type GoogleTasksConfig = z.infer<typeof googleTasksConfigSchema>;
export type GoogleTasksConfigInput = z.input<typeof googleTasksConfigSchema>;
