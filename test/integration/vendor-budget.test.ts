// The daily vendor allowance on a real PostgreSQL: concurrent takes from many "workers" never spend
// more than the limit together, a new UTC day starts afresh, and the CRM activities' guard fails
// with a retry delay to the next day once the Salesforce allowance is spent.
import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import type { ActivityDeps } from '../../activities/deps';
import { spendCrmDailyBudget } from '../../activities/vendor-budget';
import { parseTestConfig } from '../support/test-config';
import { takeDailyBudget } from '../../connectors/postgres';
import { createMigratedWarehouse, type MigratedWarehouse } from './warehouse-db';

describe('vendor daily budgets', () => {
  let w: MigratedWarehouse;
  beforeAll(async () => {
    w = await createMigratedWarehouse('vendor-budget', 20);
  });
  afterAll(async () => {
    await w?.dispose();
  });

  it('grants exactly what fits when 25 takes race for a limit of 30', async () => {
    const take = { vendor: 'salesforce', scope: 'org-a', day: '2026-11-23', units: 3, limit: 30 };
    const results = await Promise.all(Array.from({ length: 25 }, () => takeDailyBudget(w.db, take)));
    expect(results.filter((r) => r.granted)).toHaveLength(10);
    expect(Math.max(...results.map((r) => r.used ?? 0))).toBe(30);
    expect((await takeDailyBudget(w.db, { ...take, day: '2026-11-24' })).used).toBe(3);
    expect((await takeDailyBudget(w.db, { ...take, scope: 'org-b' })).granted).toBe(true);
  });

  it('fails a CRM activity with a retry delay to the next UTC day once the allowance is spent', async () => {
    const config = parseTestConfig({
      accounts: [
        {
          name: 'acme',
          platform: {
            baseUrl: 'https://p.example/v1.1/voipstudio',
            credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
          },
        },
      ],
      crm: {
        destination: {
          type: 'salesforce',
          instanceUrl: 'https://budget.my.salesforce.com',
          accessToken: 't',
          dailyApiBudget: 6,
        },
      },
    });
    const deps = { config, warehouse: w } as unknown as ActivityDeps;
    const now = new Date('2026-11-23T18:00:00Z');
    await spendCrmDailyBudget(deps, 'acme', now);
    await spendCrmDailyBudget(deps, 'acme', now);
    const err = await spendCrmDailyBudget(deps, 'acme', now).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'DailyBudgetSpent', nextRetryDelay: 6 * 3_600_000 });
    expect((err as Error).message).toContain('crm.destination.dailyApiBudget (6)');
  });

  it("spends an account's own Salesforce org's allowance, not the global destination's", async () => {
    const platform = {
      baseUrl: 'https://p.example/v1.1/voipstudio',
      credentials: { type: 'apiKey' as const, userId: 1, apiKey: 'k' },
    };
    // acme uses the global (built-in) destination; globex its own org, with its own allowance.
    const config = parseTestConfig({
      accounts: [
        { name: 'acme', platform },
        {
          name: 'globex',
          platform,
          crm: {
            type: 'salesforce',
            instanceUrl: 'https://globex.my.salesforce.com',
            accessToken: 't',
            dailyApiBudget: 3,
          },
        },
      ],
    });
    const deps = { config, warehouse: w } as unknown as ActivityDeps;
    const now = new Date('2026-11-25T18:00:00Z');
    await spendCrmDailyBudget(deps, 'globex', now);
    const err = await spendCrmDailyBudget(deps, 'globex', now).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ type: 'DailyBudgetSpent' });
    expect((err as Error).message).toContain('accounts[globex].crm.dailyApiBudget (3)');
    // acme's destination has no allowance: never held back by globex's.
    for (let i = 0; i < 5; i++) await spendCrmDailyBudget(deps, 'acme', now);
    const { rows: used } = await sql<{ scope: string }>`
      select scope from vendor_daily_budgets where day = '2026-11-25'`.execute(w.db);
    expect(used.map((r) => r.scope)).toEqual(['https://globex.my.salesforce.com']);
  });
});
