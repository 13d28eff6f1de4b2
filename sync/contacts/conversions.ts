// Converted Leads: when a salesperson converts a Lead that is linked to a platform contact, Salesforce
// makes (or merges it into) a Contact and freezes the Lead, refusing every later update of it. The
// link follows the conversion to that Contact, keeping the last synced states, so the next compare
// sees what the conversion changed and later changes on either side reach the Contact; the Contact is
// never taken for a new person and created on the platform a second time.
import type { ContactAmbiguity, ContactLink } from '../../connectors/postgres/repositories/contact-sync';

/** A Lead converted since the cursor, and the Contact it became. */
export interface LeadConversion {
  leadId: string;
  contactId: string;
}

export interface FollowedConversions {
  /** Every link, those on converted Leads moved to their Contact. */
  links: ContactLink[];
  /** The moved links, to save. */
  moved: ContactLink[];
  /** The Leads those links were on (no longer anyone's record). */
  leftLeads: string[];
  /** Conversions into a Contact another platform contact is linked to: the link stays, recorded. */
  conflicts: ContactAmbiguity[];
}

export function followConversions(
  links: readonly ContactLink[],
  conversions: readonly LeadConversion[],
): FollowedConversions {
  const contactOf = new Map(conversions.map((c) => [c.leadId, c.contactId]));
  const linkedContacts = new Map(
    links.filter((l) => l.crmKind === 'contact').map((l) => [l.crmId, l.platformId]),
  );
  const moved: ContactLink[] = [];
  const leftLeads: string[] = [];
  const conflicts: ContactAmbiguity[] = [];
  const out = links.map((link) => {
    const contactId = link.crmKind === 'lead' ? contactOf.get(link.crmId) : undefined;
    if (contactId === undefined || link.deletedSide !== null) return link;
    const holder = linkedContacts.get(contactId);
    if (holder !== undefined && holder !== link.platformId) {
      conflicts.push({
        side: 'platform',
        recordId: link.platformId,
        candidates: [contactId],
        reason:
          `Lead ${link.crmId} was converted into Contact ${contactId}, which platform contact ${holder} ` +
          'is linked to: the two platform contacts are the same person (merge them)',
      });
      return link;
    }
    const next: ContactLink = { ...link, crmKind: 'contact', crmId: contactId };
    linkedContacts.set(contactId, link.platformId);
    moved.push(next);
    leftLeads.push(link.crmId);
    return next;
  });
  return { links: out, moved, leftLeads, conflicts };
}
