// The groups a destination has only when it claims the feature: outcomes read back, erasure of what
// callsync created, the vendor's rate limit kept, and access tokens renewed when they expire.
import type { CrmOutcome } from '../../connectors/crm/crm-connector';
import {
  ensureUnknownContact,
  upsertCallLog,
  upsertMessageLog,
  upsertTask,
} from '../../connectors/crm/upsert';
import {
  conformanceCallLog,
  conformanceMessage,
  conformanceTask,
  freshNumber,
  onlyWithKey,
  seededContact,
} from './conformance-fixtures';
import type { DestinationFeatures, DestinationHarness } from './destination-harness';

/** How many call logs the rate-limit scenario writes at once. */
const BURST = 30;

export function vendorRuleScenarios(h: () => DestinationHarness, features: DestinationFeatures): void {
  if (features.outcomes) {
    describe('outcomes', () => {
      it('reads back the outcome an agent set on a call log callsync wrote', async () => {
        const { contact, e164 } = await seededContact(h(), 'Outcome Caller');
        const log = conformanceCallLog(h().account, e164, contact);
        const { crmId } = await upsertCallLog(h().db, h().connector, log, { mayExist: false });
        await h().setOutcome!(crmId, 'Connected');
        const seen: CrmOutcome[] = [];
        for await (const page of h().connector.outcomes!().changedSince(null)) seen.push(...page);
        expect(seen.filter((o) => o.crmId === crmId)).toEqual([
          expect.objectContaining({ key: log.key, crmId, label: 'Connected' }),
        ]);
      });
    });
  }

  if (features.erasure) {
    describe('erasure', () => {
      it('deletes what callsync created; deleting it again succeeds', async () => {
        const { connector: c, db } = h();
        const { contact, e164 } = await seededContact(h(), 'Erased Caller');
        const first = { mayExist: false };
        const log = await upsertCallLog(db, c, conformanceCallLog(h().account, e164, contact), first);
        const task = await upsertTask(db, c, conformanceTask(h().account, e164, contact), first);
        const messages = features.messages
          ? await Promise.all(
              (['sms', 'voicemail'] as const).map(async (channel) => ({
                channel,
                crmId: (await upsertMessageLog(
                  db,
                  c,
                  conformanceMessage(h().account, channel, e164, contact),
                  first,
                ))!.crmId,
              })),
            )
          : [];
        const stranger = freshNumber().e164;
        const unknown = features.createContacts
          ? await ensureUnknownContact(db, c, { account: h().account, e164: stranger })
          : null;
        for (let round = 0; round < 2; round++) {
          await c.deleteCallLog!(log.crmId);
          await c.deleteTask!(task.crmId);
          for (const m of messages) await c.deleteMessageLog!(m.crmId, m.channel);
          if (unknown) await c.deleteContact!(unknown.contact.crmId);
        }
        expect((await h().callLogs()).map((r) => r.crmId)).not.toContain(log.crmId);
        expect((await h().tasks()).map((r) => r.crmId)).not.toContain(task.crmId);
        const heldMessages = (await h().messages()).map((r) => r.crmId);
        for (const m of messages) expect(heldMessages).not.toContain(m.crmId);
        if (unknown) expect(await h().contactsWithPhone(stranger)).toEqual([]);
        // The seeded contact is the agent's, not callsync's: it stays.
        expect(await h().connector.findContactsByPhone(e164)).toEqual([
          expect.objectContaining({ crmId: contact.crmId }),
        ]);
      });
    });
  }

  if (features.tokenExpiry) {
    describe('token expiry', () => {
      it('renews an expired access token and writes once', async () => {
        const { contact, e164 } = await seededContact(h(), 'Token Caller');
        const log = conformanceCallLog(h().account, e164, contact);
        h().expireTokens!();
        const first = await upsertCallLog(h().db, h().connector, log, { mayExist: false });
        expect(first.outcome).toBe('created');
        h().expireTokens!();
        const later = { ...log, title: `${log.title} (after renewal)` };
        expect(await upsertCallLog(h().db, h().connector, later)).toEqual({
          crmId: first.crmId,
          outcome: 'updated',
        });
        expect(onlyWithKey(await h().callLogs(), log.key).title).toBe(later.title);
      });
    });
  }
  // Last: a harness may tighten the limit for good (later scenarios would crawl under it).
  if (features.rateLimits) {
    describe('rate limits', () => {
      it(`a burst of ${BURST} call logs lands once each, with no 429 from the vendor`, async () => {
        h().tightenRateLimit!();
        const before = h().tooManyRequests!();
        const { contact, e164 } = await seededContact(h(), 'Busy Line');
        const logs = Array.from({ length: BURST }, () => conformanceCallLog(h().account, e164, contact));
        // First attempts, as the call workflow makes them: straight to create, no search first.
        const results = await Promise.all(
          logs.map((log) => upsertCallLog(h().db, h().connector, log, { mayExist: false })),
        );
        expect(results.every((r) => r.outcome === 'created')).toBe(true);
        const held = await h().callLogs();
        for (const log of logs) onlyWithKey(held, log.key);
        // The connector's rate gate kept under the vendor's limit: the vendor refused nothing. (A vendor
        // whose documentation makes 429s part of normal work declares 'retried': every write landed
        // once, as checked above, is then the promise.)
        if ((h().tooManyRequestsPolicy ?? 'avoided') === 'avoided')
          expect(h().tooManyRequests!() - before).toBe(0);
      });
    });
  }
}
