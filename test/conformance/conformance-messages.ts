// SMS and voicemail (feature `messages`): each one log on its contact, updated in place, and one
// still when the answer to its create was lost.
import type { MessageLog } from '../../connectors/crm/crm-connector';
import { upsertMessageLog, type UpsertResult } from '../../connectors/crm/upsert';
import { conformanceMessage, onlyWithKey, seededContact } from './conformance-fixtures';
import type { DestinationHarness } from './destination-harness';

/** upsertMessageLog, which answers null only for a connector without messages. */
async function upsert(h: DestinationHarness, log: MessageLog, first = false): Promise<UpsertResult> {
  const result = upsertMessageLog(h.db, h.connector, log, { mayExist: !first });
  expect(result).not.toBeNull();
  return result!;
}

export function messageScenarios(h: () => DestinationHarness): void {
  describe('SMS and voicemail', () => {
    it.each(['sms', 'voicemail'] as const)(
      '%s: one log on the contact, updated in place',
      async (channel) => {
        const { contact, e164 } = await seededContact(h(), 'Message Sender');
        const log = conformanceMessage(h().account, channel, e164, contact);
        const first = await upsert(h(), log, true);
        expect(first.outcome).toBe('created');
        let held = onlyWithKey(await h().messages(), log.key);
        expect(held).toMatchObject({ crmId: first.crmId, contactId: contact.crmId });
        expect(held.body).toContain(log.body);

        const later = { ...log, body: `${log.body} (before five)` };
        expect(await upsert(h(), later)).toEqual({ crmId: first.crmId, outcome: 'updated' });
        held = onlyWithKey(await h().messages(), log.key);
        expect(held.body).toContain('(before five)');
      },
    );

    it.each(['sms', 'voicemail'] as const)(
      '%s: lost answer on create, the retry finds the log, one log',
      async (channel) => {
        const { contact, e164 } = await seededContact(h(), 'Lost Message');
        const log = conformanceMessage(h().account, channel, e164, contact);
        h().loseNextAnswer('message');
        await expect(upsert(h(), log, true)).rejects.toThrow();
        onlyWithKey(await h().messages(), log.key);

        const retry = { ...log, body: `${log.body} (retried)` };
        const result = await upsert(h(), retry);
        expect(result.outcome).toBe('recovered');
        const held = onlyWithKey(await h().messages(), log.key);
        expect(held).toMatchObject({ crmId: result.crmId, contactId: contact.crmId });
        expect(held.body).toContain('(retried)');
      },
    );
  });
}
