// One call log per call: created once on the chosen contact and updated in place, through the
// product's upsert, under concurrent upserts, a worker killed between create and mapping, and a create
// whose answer was lost.
import { upsertCallLog } from '../../connectors/crm/upsert';
import { conformanceCallLog, onlyWithKey, seededContact } from './conformance-fixtures';
import type { DestinationHarness } from './destination-harness';

export function callLogScenarios(h: () => DestinationHarness): void {
  describe('call logs', () => {
    it('creates one call log on the chosen contact, then updates it in place', async () => {
      const { contact, e164 } = await seededContact(h(), 'Grace Hopper');
      const log = conformanceCallLog(h().account, e164, contact);
      // A first attempt, as the call workflow makes it: straight to create, no search for the key.
      const first = await upsertCallLog(h().db, h().connector, log, { mayExist: false });
      expect(first.outcome).toBe('created');
      let held = onlyWithKey(await h().callLogs(), log.key);
      expect(held).toMatchObject({ crmId: first.crmId, contactId: contact.crmId, title: log.title });

      const later = {
        ...log,
        title: `${log.title} (recorded)`,
        summary: 'Asked about invoice 42.',
        recordingUrl: 'https://recordings.example/42.mp3',
      };
      expect(await upsertCallLog(h().db, h().connector, later)).toEqual({
        crmId: first.crmId,
        outcome: 'updated',
      });
      held = onlyWithKey(await h().callLogs(), log.key);
      expect(held).toMatchObject({ crmId: first.crmId, contactId: contact.crmId, title: later.title });
      expect(held.body).toContain('Asked about invoice 42.');
    });

    it('concurrent upserts of one key make one call log', async () => {
      const { contact, e164 } = await seededContact(h(), 'Concurrent Caller');
      const log = conformanceCallLog(h().account, e164, contact);
      const results = await Promise.all(
        [1, 2, 3, 4].map((n) => upsertCallLog(h().db, h().connector, { ...log, summary: `Delivery ${n}.` })),
      );
      expect(new Set(results.map((r) => r.crmId)).size).toBe(1);
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
      expect(onlyWithKey(await h().callLogs(), log.key).crmId).toBe(results[0]!.crmId);
    });

    it('worker kill: a create whose mapping was never recorded is recovered, not made again', async () => {
      const { contact, e164 } = await seededContact(h(), 'Killed Worker');
      const log = conformanceCallLog(h().account, e164, contact);
      // The worker created the call log and died before recording the mapping.
      const crmId = await h().connector.createCallLog(log);
      const retried = await upsertCallLog(h().db, h().connector, {
        ...log,
        summary: 'Written after the restart.',
      });
      expect(retried).toEqual({ crmId, outcome: 'recovered' });
      const held = onlyWithKey(await h().callLogs(), log.key);
      expect(held.crmId).toBe(crmId);
      expect(held.body).toContain('Written after the restart.');
    });

    it('lost answer: the vendor created the call log, callsync never heard; the retry updates that one', async () => {
      const { contact, e164 } = await seededContact(h(), 'Lost Answer');
      const log = conformanceCallLog(h().account, e164, contact);
      h().loseNextAnswer('callLog');
      // The first attempt goes straight to create, and hears nothing back.
      await expect(upsertCallLog(h().db, h().connector, log, { mayExist: false })).rejects.toThrow();
      // The create was carried out: the vendor holds the call log already.
      expect(onlyWithKey(await h().callLogs(), log.key).title).toBe(log.title);

      const retry = { ...log, title: `${log.title} (retried)`, summary: 'Written by the retry.' };
      const result = await upsertCallLog(h().db, h().connector, retry);
      expect(result.outcome).toBe('recovered');
      const held = onlyWithKey(await h().callLogs(), log.key);
      expect(held).toMatchObject({ crmId: result.crmId, contactId: contact.crmId, title: retry.title });
      expect(held.body).toContain('Written by the retry.');
    });
  });
}
