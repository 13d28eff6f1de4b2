// The contact sync's activity: one run of sync/contacts for an account, with its CRM's contact book.
import { ApplicationFailure } from '@temporalio/activity';
import type { CountryCode } from 'libphonenumber-js';
import { contactSyncOf } from '../config/account-settings';
import type { CrmContactBook } from '../connectors/crm/contact-book';
import { destinationIdOf } from '../connectors/crm/crm-connector';
import { putContactSyncState } from '../connectors/postgres/repositories/contact-sync';
import {
  forgetCrmContact,
  upsertCrmContactCache,
} from '../connectors/postgres/repositories/crm-contact-cache';
import type { ContactSyncInput, ContactSyncSummary } from '../contracts';
import { runContactSync } from '../sync/contacts/engine';
import type { ActivityDeps } from './deps';

/** The contact book of an account's CRM, or null when its destination keeps no contacts to sync. */
export function contactBookOf(deps: ActivityDeps, account: string): CrmContactBook | null {
  const createAs = contactSyncOf(deps.config, account).salesforceCreateAs === 'Lead' ? 'lead' : 'contact';
  const country = deps.config.crm.defaultCountry as CountryCode;
  return deps.crm(account).contactBook?.({ country, createAs }) ?? null;
}

export function createContactSyncActivities(deps: ActivityDeps) {
  const prepared = new WeakSet<CrmContactBook>();
  return {
    async syncContacts(input: ContactSyncInput): Promise<ContactSyncSummary> {
      const book = contactBookOf(deps, input.account);
      if (!book) {
        throw ApplicationFailure.nonRetryable(
          `account ${input.account}: its CRM destination (${deps.crm(input.account).name}) keeps no contact book to sync with`,
          'ConfigError',
        );
      }
      // Links, progress and the screen-pop cache are the account's at this very portal or org: after a
      // move to another one, its records are matched and linked anew.
      const destination = destinationIdOf(deps.crm(input.account));
      const scope = { account: input.account, destination };
      const cache = { account: input.account, destination };
      if (!prepared.has(book)) {
        await book.prepare();
        prepared.add(book);
      }
      try {
        return await runContactSync({
          db: deps.warehouse.db,
          platform: deps.platform(input.account),
          book,
          config: contactSyncOf(deps.config, input.account),
          country: deps.config.crm.defaultCountry as CountryCode,
          scope,
          onUnlinked: async (crmIds) => {
            for (const id of crmIds) await forgetCrmContact(deps.warehouse.db, cache, id);
          },
          // Warms the screen-pop cache with every linked or created CRM contact's numbers.
          onLinked: (entries) =>
            upsertCrmContactCache(
              deps.warehouse.db,
              entries.flatMap((e) =>
                e.numbers.map((e164) => ({
                  ...cache,
                  e164,
                  contact: {
                    crmId: e.crmId,
                    kind: e.kind,
                    name: e.name,
                    ownerId: null,
                    updatedAt: new Date().toISOString(),
                  },
                })),
              ),
            ),
        });
      } catch (err) {
        // Visible in `callsync status` while Temporal retries (or after it gives up).
        const message = err instanceof Error ? err.message : String(err);
        await putContactSyncState(deps.warehouse.db, scope, {
          stage: 'failed',
          lastError: message.slice(0, 500),
        });
        throw err;
      }
    },
  };
}
