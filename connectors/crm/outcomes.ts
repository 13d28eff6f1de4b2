// The pure rules that turn an outcome an agent set on a call log in the CRM (HubSpot's call
// disposition, Salesforce's CallDisposition; crm-connector.ts CrmOutcome) into a CDR label and note.
import type { CrmOutcome } from './crm-connector';

export type { CrmOutcome, CrmOutcomeSource } from './crm-connector';

/** How outcomes become CDR labels (config `outcomes`). */
export interface OutcomeLabelRules {
  /** Put before every outcome label ("CRM: "), so they sort together and read as the CRM's. */
  labelPrefix: string;
  /** Outcome value or display text → label name; the display text itself when absent. */
  map: Readonly<Record<string, string>>;
}

/** Longest label name written (the spec does not say; 64 fits every CRM's default outcome). */
export const LABEL_MAX_CHARS = 64;

/** The call label an outcome puts on the CDR. */
export function outcomeLabel(outcome: Pick<CrmOutcome, 'value' | 'label'>, rules: OutcomeLabelRules): string {
  const lower = outcome.label.toLowerCase();
  const mapped =
    rules.map[outcome.value] ??
    Object.entries(rules.map).find(([k]) => k.toLowerCase() === lower)?.[1] ??
    outcome.label;
  return `${rules.labelPrefix}${mapped}`.trim().slice(0, LABEL_MAX_CHARS);
}

/** The note an outcome adds to the CDR: "Outcome in HubSpot: Connected (set by ada@… at …)". */
export function outcomeNote(outcome: Pick<CrmOutcome, 'label' | 'by' | 'modifiedAt'>, crm: string): string {
  const by = outcome.by ? `set by ${outcome.by} at ` : 'set at ';
  return `Outcome in ${crm}: ${outcome.label} (${by}${outcome.modifiedAt})`;
}

/** The label names a CDR holds (the platform returns names, ids or label objects). */
export function cdrLabelNames(labels: unknown): string[] {
  if (!Array.isArray(labels)) return [];
  const names: string[] = [];
  for (const l of labels) {
    const name =
      typeof l === 'string' ? l : typeof l === 'object' && l !== null ? (l as { name?: unknown }).name : null;
    if (typeof name === 'string' && name !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

/**
 * A CDR's labels after an outcome: the agent's own labels kept, the label of the outcome callsync
 * wrote before (`previous`) removed, the new one added. PATCH /cdrs replaces the whole list.
 */
export function labelsAfterOutcome(
  current: readonly string[],
  previous: string | null,
  next: string,
): string[] {
  const kept = current.filter((l) => l !== previous && l !== next);
  return [...kept, next];
}

/** The call id of a call key of `account`, or null when the key is another account's or no call's. */
export function callIdOfKey(key: string, account: string): number | null {
  const prefix = `${account}:`;
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  return /^\d+$/.test(rest) ? Number(rest) : null;
}
