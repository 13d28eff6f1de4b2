// The settings in force for one account: its own overrides (`accounts[].overrides`) over the global
// sections. Activities ask here, by account, for everything an account's CRM decides.
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
