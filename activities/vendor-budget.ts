// The Salesforce org's daily API allowance, shared by every worker through PostgreSQL: each CRM
// activity spends what it may send before sending it; a spent allowance fails the attempt with a
// retry delay that ends at the next UTC day (Temporal's retry policy does the waiting).
import { ApplicationFailure } from '@temporalio/activity';
import { takeDailyBudget } from '../connectors/postgres';
import { CRM_REQUESTS_PER_ACTIVITY } from '../contracts/task-queues';
import type { ActivityDeps } from './deps';
import { crmDestinationOf } from '../config/account-settings';

/** Milliseconds from `now` to the next UTC midnight. */
export function msUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return next - now.getTime();
}

/**
 * Spends one CRM activity's requests of `account`'s destination's daily budget (its own org's, from
 * `accounts[].crm`, else `crm.destination`), or throws a retryable DailyBudgetSpent.
 */
export async function spendCrmDailyBudget(
  deps: ActivityDeps,
  account: string,
  now = new Date(),
): Promise<void> {
  const destination = crmDestinationOf(deps.config, account);
  if (destination.type !== 'salesforce' || destination.dailyApiBudget === undefined) return;
  const take = await takeDailyBudget(deps.warehouse.db, {
    vendor: 'salesforce',
    scope: destination.instanceUrl,
    day: now.toISOString().slice(0, 10),
    units: CRM_REQUESTS_PER_ACTIVITY,
    limit: destination.dailyApiBudget,
  });
  if (take.granted) return;
  throw ApplicationFailure.create({
    type: 'DailyBudgetSpent',
    message: `${destination === deps.config.crm.destination ? 'crm.destination' : `accounts[${account}].crm`}.dailyApiBudget (${destination.dailyApiBudget}) is spent for ${now.toISOString().slice(0, 10)} UTC`,
    nextRetryDelay: msUntilNextUtcDay(now),
  });
}
