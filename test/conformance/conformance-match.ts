// Contact match by E.164: a seeded contact found by its number in the vendor's own formatting, the
// matching rules among several contacts with one number, and unknown callers created once.
import { resolveCallOwner } from '../../connectors/crm/call-owner';
import { chooseContact } from '../../connectors/crm/match';
import { ensureUnknownContact } from '../../connectors/crm/upsert';
import { freshNumber } from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness } from './destination-harness';

export function matchScenarios(h: () => DestinationHarness, features: DestinationFeatures): void {
  describe('contact match by E.164', () => {
    it("finds a seeded contact by its E.164 number, stored in the vendor's own formatting", async () => {
      const { e164, typed } = freshNumber();
      const crmId = await h().seedContact({ name: 'Ada Lovelace', phones: [typed] });
      const found = await h().connector.findContactsByPhone(e164);
      expect(found.map((c) => c.crmId)).toEqual([crmId]);
      expect(found[0]!.name).toMatch(/Lovelace/);
      expect(await h().connector.findContactsByPhone(freshNumber().e164)).toEqual([]);
    });

    it('most_recent: of two contacts with one number, the one the vendor modified last', async () => {
      const { e164, typed } = freshNumber();
      const older = await h().seedContact({
        name: 'Older Contact',
        phones: [typed],
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
      const newer = await h().seedContact({
        name: 'Newer Contact',
        phones: [typed],
        updatedAt: '2026-11-01T00:00:00.000Z',
      });
      const found = await h().connector.findContactsByPhone(e164);
      expect(found.map((c) => c.crmId).sort()).toEqual([older, newer].sort());
      expect(chooseContact(found, 'most_recent', null)?.crmId).toBe(newer);
    });

    if (features.owners) {
      it("call_owner: the contact owned by the call's user, even when another is newer", async () => {
        const { e164, typed } = freshNumber();
        const owned = await h().seedContact({
          name: 'Owned Contact',
          phones: [typed],
          ownerEmail: 'rep.one@example.com',
          updatedAt: '2026-01-01T00:00:00.000Z',
        });
        const newer = await h().seedContact({
          name: 'Newer Contact',
          phones: [typed],
          ownerEmail: 'rep.two@example.com',
          updatedAt: '2026-11-01T00:00:00.000Z',
        });
        const { connector } = h();
        // The call's user as the platform knows them (its user id, its e-mail as typed there).
        const owner = await resolveCallOwner({
          userId: 7,
          email: 'Rep.One@Example.com',
          overrides: {},
          connector,
        });
        expect(owner).not.toBeNull();
        expect(await connector.ownerId!('nobody@example.com')).toBeNull();
        const found = await connector.findContactsByPhone(e164);
        expect(chooseContact(found, 'call_owner', owner)?.crmId).toBe(owned);
        expect(chooseContact(found, 'most_recent', owner)?.crmId).toBe(newer);
        // A platform user id is no CRM owner id: without the mapping the rule falls back to most recent.
        expect(chooseContact(found, 'call_owner', '7')?.crmId).toBe(newer);
        // The configuration may name the owner (by platform user id or e-mail) instead.
        const two = await connector.ownerId!('rep.two@example.com');
        expect(two).not.toBeNull();
        for (const overrides of [{ '7': two! }, { 'unknown@example.com': two! }]) {
          const configured = await resolveCallOwner({
            userId: 7,
            email: 'Unknown@example.com',
            overrides,
            connector,
          });
          expect(chooseContact(found, 'call_owner', configured)?.crmId).toBe(newer);
        }
      });
    }

    if (features.createContacts) {
      it('creates an unknown caller once, asked twice at once and once more later', async () => {
        const { e164 } = freshNumber();
        const caller = { account: h().account, e164 };
        const both = await Promise.all([
          ensureUnknownContact(h().db, h().connector, caller),
          ensureUnknownContact(h().db, h().connector, caller),
        ]);
        const later = await ensureUnknownContact(h().db, h().connector, caller);
        const all = [...both, later];
        expect(all.filter((r) => r.outcome === 'created')).toHaveLength(1);
        expect(new Set(all.map((r) => r.contact.crmId)).size).toBe(1);
        const held = await h().contactsWithPhone(e164);
        expect(held.map((c) => c.crmId)).toEqual([later.contact.crmId]);
      });
    }
  });
}
