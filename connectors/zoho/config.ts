import { z } from 'zod';
import { secret } from '../../config/secret';

/** Zoho's data centres: each has its own API and accounts domains (the SDK's DataCenter classes know them). */
export const ZOHO_DATA_CENTRES = ['us', 'eu', 'in', 'au', 'jp', 'ca', 'cn'] as const;
export type ZohoDataCentre = (typeof ZOHO_DATA_CENTRES)[number];

/**
 * A Zoho CRM destination: a self-client or server-based OAuth client of the org's data centre and the
 * refresh token an admin's authorisation gave (access tokens live one hour and are renewed through
 * the accounts server; the current one is kept sealed in PostgreSQL for every worker).
 */
export const zohoConfigSchema = z
  .object({
    type: z.literal('zoho'),
    /** The org's data centre (its CRM lives at crm.zoho.com, crm.zoho.eu, crm.zoho.in, …). */
    dataCentre: z.enum(ZOHO_DATA_CENTRES),
    /** Production, or the org's sandbox or developer environment. */
    environment: z.enum(['production', 'sandbox', 'developer']).default('production'),
    /** The OAuth client's id (api-console.zoho.<dc>). */
    clientId: z.string().min(1),
    /** The OAuth client's secret; a secret (`{ "env" }` or `{ "file" }`), no default. */
    clientSecret: secret(),
    /** The refresh token of the admin's authorisation (scopes in docs/crm.md); a secret, no default. */
    refreshToken: secret(),
    /** The org id shown in the CRM's web address (`crm.zoho.eu/crm/org20012345/…`): record pages link to it. */
    orgId: z
      .string()
      .regex(/^org\d+$/, 'the org id as it appears in the web address, e.g. org20012345')
      .optional(),
    /** API origin instead of the data centre's (https://www.zohoapis.<dc>); only tests point it elsewhere. */
    apiUrl: z.url().optional(),
    /** Accounts origin instead of the data centre's (https://accounts.zoho.<dc>); only tests point it elsewhere. */
    accountsUrl: z.url().optional(),
    /** Whom callsync creates for an unknown caller: a Contact or a Lead. */
    unknownCallersAs: z.enum(['Contacts', 'Leads']).default('Contacts'),
    /**
     * The API name of the custom single-line field holding callsync's key on Calls and Tasks (create it
     * in both modules, "Do not allow duplicate values" ticked).
     */
    keyField: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'a field API name such as Callsync_Key')
      .default('Callsync_Key'),
    /**
     * Requests callsync sends at once. Zoho limits concurrent requests per org by edition (Free 5,
     * Standard 10, Professional 15, Enterprise 20, Ultimate 25) and answers 429 beyond; leave room for
     * the org's other integrations.
     */
    maxConcurrentRequests: z.number().int().min(1).max(25).default(5),
    /** Requests per second this connector sends (Zoho counts credits per rolling 24 hours per org). */
    requestsPerSecond: z.number().positive().max(50).default(5),
    /** Renew the access token (Zoho's live an hour) when it expires within this many seconds. */
    refreshBeforeExpirySeconds: z.number().min(0).max(1800).default(300),
    /**
     * How long Zoho's search takes to see a record callsync just created ("records are indexed for
     * search shortly after they are created", https://www.zoho.com/crm/developer/docs/api/v8/search-records.html):
     * an unknown caller's contact whose create answer was lost is searched for again after it.
     */
    searchLagSeconds: z.number().min(0).max(60).default(5),
    /** Priority of callback tasks. */
    taskPriority: z.enum(['Highest', 'High', 'Normal', 'Low', 'Lowest']).default('High'),
  })
  .refine((c) => (c.apiUrl === undefined) === (c.accountsUrl === undefined), {
    message: 'give apiUrl and accountsUrl together (a test server answers both), or neither',
    path: ['accountsUrl'],
  });

export type ZohoConfig = z.infer<typeof zohoConfigSchema>;
export type ZohoConfigInput = z.input<typeof zohoConfigSchema>;
