// The settings in force for one account: its own overrides (`accounts[].overrides`) over the global
// sections. Activities ask here, by account, for everything an account's CRM decides.
import type { ContactSyncConfig } from './contact-sync';
import type { ConversationsConfig, ScreenPopConfig } from './conversations';
import type { OutcomesConfig } from './outcomes';
import type { CallsyncConfig, CrmDestinationConfig } from './schema';

type CrmRules = Pick<CallsyncConfig['crm'], 'matchRule' | 'owners' | 'createUnknownContacts'>;
type Callbacks = CallsyncConfig['callbacks'];

function overridesOf(config: CallsyncConfig, account: string) {
  return config.accounts.find((a) => a.name === account)?.overrides ?? {};
}

/** `over`'s given values on top of `base` (a key left out, or undefined, keeps the base's value). */
function overlay<T extends object>(base: T, over: { [K in keyof T]?: T[K] | undefined } | undefined): T {
  const given = Object.entries(over ?? {}).filter(([, v]) => v !== undefined);
  return { ...base, ...(Object.fromEntries(given) as Partial<T>) };
}

/** How `account`'s callers are matched to its CRM's contacts, and whether unknown ones are created. */
export function crmRulesOf(config: CallsyncConfig, account: string): CrmRules {
  const { matchRule, owners, createUnknownContacts } = config.crm;
  return overlay({ matchRule, owners, createUnknownContacts }, overridesOf(config, account).crm);
}

/** `account`'s callback settings, its business hours (`autoDial`) included. */
export function callbacksOf(config: CallsyncConfig, account: string): Callbacks {
  const { autoDial, ...own } = overridesOf(config, account).callbacks ?? {};
  return {
    ...overlay(config.callbacks, own),
    autoDial: overlay(config.callbacks.autoDial, autoDial),
  };
}

/** The CRM destination of an account: its own (`accounts[].crm`), else `crm.destination`. */
export function crmDestinationOf(
  config: Pick<CallsyncConfig, 'accounts' | 'crm'>,
  account: string,
): CrmDestinationConfig {
  return config.accounts.find((a) => a.name === account)?.crm ?? config.crm.destination;
}

/** Where `account`'s finished reports go: its own `reports.delivery`, else the global one. */
export function reportDeliveryOf(
  config: CallsyncConfig,
  account: string,
): CallsyncConfig['reports']['delivery'] {
  return overridesOf(config, account).reports?.delivery ?? config.reports.delivery;
}

/**
 * `account`'s screen-pop, SMS and voicemail settings, field by field over `conversations`. A link
 * template the account sets to null is dropped: its destination's own page, whatever the global says.
 */
export function conversationsOf(config: CallsyncConfig, account: string): ConversationsConfig {
  const { screenPop: ownPop, ...own } = overridesOf(config, account).conversations ?? {};
  const { contactUrl, createContactUrl, ...popRest } = ownPop ?? {};
  const screenPop: ScreenPopConfig = overlay(config.conversations.screenPop, popRest);
  for (const [key, value] of [
    ['contactUrl', contactUrl],
    ['createContactUrl', createContactUrl],
  ] as const) {
    if (value === null) delete screenPop[key];
    else if (value !== undefined) screenPop[key] = value;
  }
  return { ...overlay(config.conversations, own), screenPop };
}

/** Destinations with web pages of their own for a contact and a new contact (their connectors' contactPageUrl). */
const DESTINATIONS_WITH_PAGES: ReadonlySet<CrmDestinationConfig['type']> = new Set([
  'hubspot',
  'salesforce',
  'zendesk',
  'pipedrive',
  'dynamics',
  'zoho',
]);

/**
 * Whether a ringing call of `account` can get a screen-pop link: screen-pop is on and there is a page
 * to link to (a link template, or a destination with pages of its own). When not, the receiver starts
 * no screen-pop workflow (it could only answer "skipped"); an account the config does not know yet
 * (stored at run time) gets one.
 */
export function screenPopLinks(config: CallsyncConfig, account: string): boolean {
  if (!config.accounts.some((a) => a.name === account)) return true;
  const { screenPop } = conversationsOf(config, account);
  if (!screenPop.enabled) return false;
  if (screenPop.contactUrl !== undefined || screenPop.createContactUrl !== undefined) return true;
  return DESTINATIONS_WITH_PAGES.has(crmDestinationOf(config, account).type);
}

/** `account`'s contact sync settings; its field ownership is merged field by field over the global one. */
export function contactSyncOf(config: CallsyncConfig, account: string): ContactSyncConfig {
  const own = overridesOf(config, account).contacts ?? {};
  return { ...overlay(config.contacts, own), fields: { ...config.contacts.fields, ...own.fields } };
}

/** Whether and how `account`'s CRM outcomes are written back to its CDRs. */
export function outcomesOf(config: CallsyncConfig, account: string): OutcomesConfig {
  return overlay(config.outcomes, overridesOf(config, account).outcomes);
}

/** Whether erasing a person also deletes the records callsync created in `account`'s CRM. */
export function deletesCrmRecordsOf(config: CallsyncConfig, account: string): boolean {
  return overridesOf(config, account).erasure?.deleteCrmRecords ?? config.erasure.deleteCrmRecords;
}
