// Screen-pop: the ringing call's action link (PATCH /calls/{id} action_url, action_text) to the
// caller's CRM page, or to the CRM's "create contact" page for an unknown caller. Setting the same
// link again is harmless, so a retried or redelivered screen-pop only repeats the same PATCH.
import type { CountryCode } from 'libphonenumber-js';
import type { ScreenPopConfig } from '../config/conversations';
import type { CrmConnector, CrmContact } from '../connectors/crm/crm-connector';
import { chooseContact } from '../connectors/crm/match';
import { toE164 } from '../lib/phone';
import { NotFoundError } from '../connectors/platform';
import type { ScreenPopInput, ScreenPopResult } from '../contracts';
import { contactLookupOf } from './contact-lookup';
import { conversationsOf, crmRulesOf } from '../config/account-settings';
import type { ActivityDeps } from './deps';

/** The spec's action_text has no stated limit; links shown in a softphone stay short. */
const TEXT_MAX = 200;

/** Fills `{id}`, `{kind}`, `{e164}` and `{name}` of a template (URL-encoded when `encode`). */
export function fillTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  encode: boolean,
): string {
  return template.replace(/\{(id|kind|e164|name)\}/g, (_m, key: string) => {
    const v = values[key] ?? '';
    return encode ? encodeURIComponent(v) : v;
  });
}

/** The link and its text for a caller: their page when the CRM knows them, else "create contact". */
export async function callerLink(
  crm: CrmConnector,
  config: ScreenPopConfig,
  e164: string,
  contact: CrmContact | null,
): Promise<{ url: string; text: string } | null> {
  const values = {
    id: contact?.crmId ?? '',
    kind: contact?.kind ?? '',
    e164,
    name: contact?.name ?? e164,
  };
  if (contact) {
    const url = config.contactUrl
      ? fillTemplate(config.contactUrl, values, true)
      : await crm.contactPageUrl?.(contact);
    return url ? { url, text: fillTemplate(config.contactText, values, false).slice(0, TEXT_MAX) } : null;
  }
  const url = config.createContactUrl
    ? fillTemplate(config.createContactUrl, values, true)
    : await crm.newContactPageUrl?.(e164);
  return url ? { url, text: fillTemplate(config.createContactText, values, false).slice(0, TEXT_MAX) } : null;
}

export function createScreenPopActivities(deps: ActivityDeps) {
  const country = deps.config.crm.defaultCountry as CountryCode;
  return {
    async popCallerLink(input: ScreenPopInput): Promise<ScreenPopResult> {
      const config = conversationsOf(deps.config, input.account).screenPop;
      if (!config.enabled)
        return {
          outcome: 'skipped',
          reason: `conversations.screenPop.enabled is false for ${input.account}`,
        };
      const e164 = toE164(input.caller, country);
      if (!e164)
        return { outcome: 'skipped', reason: 'the caller has no phone number (anonymous or internal)' };
      const crm = deps.crm(input.account);
      const { contacts, source } = await contactLookupOf(deps).candidates(input.account, crm, e164);
      const contact = chooseContact(contacts, crmRulesOf(deps.config, input.account).matchRule, null);
      const link = await callerLink(crm, config, e164, contact);
      if (!link) return { outcome: 'skipped', reason: `${crm.name} has no web pages to link to`, source };
      try {
        // No quick retries inside the client: the workflow's retry policy owns them.
        await deps
          .platform(input.account)
          .calls.update(input.callId, { action_url: link.url, action_text: link.text }, { maxRetries: 0 });
      } catch (err) {
        // The call was answered or hung up before the link landed: nothing left to pop.
        if (err instanceof NotFoundError) return { outcome: 'gone', source };
        throw err;
      }
      return contact ? { outcome: 'contact', crmId: contact.crmId, source } : { outcome: 'create', source };
    },
  };
}
