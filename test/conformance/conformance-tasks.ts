// Callback tasks: one per key, opened, updated and closed in place (closed in the vendor's own done
// state), and one task still when the answer to its create was lost.
import { upsertTask } from '../../connectors/crm/upsert';
import { conformanceTask, onlyWithKey, seededContact } from './conformance-fixtures';
import type { DestinationHarness } from './destination-harness';

/**
 * The words vendors use for a finished task (HubSpot COMPLETED, Salesforce Completed, Pipedrive
 * done, Zoho Completed, Dynamics' statecode 1 "Completed", Zendesk solved, the built-in closed).
 */
const DONE = /^(completed?|closed|done|solved|resolved|true|1)$/i;

export function taskScenarios(h: () => DestinationHarness): void {
  describe('callback tasks', () => {
    it("opens, updates and closes one task, closed in the vendor's done state", async () => {
      const { contact, e164 } = await seededContact(h(), 'Missed Caller');
      const task = conformanceTask(h().account, e164, contact);
      const opened = await upsertTask(h().db, h().connector, task, { mayExist: false });
      expect(opened.outcome).toBe('created');
      let held = onlyWithKey(await h().tasks(), task.key);
      expect(held).toMatchObject({ crmId: opened.crmId, contactId: contact.crmId, title: task.subject });
      const openStatus = held.status;
      expect(openStatus).not.toBeNull();
      expect(openStatus).not.toMatch(DONE);

      const updated = { ...task, body: 'Missed calls at 10:15 and 10:40 (2 attempts).' };
      expect(await upsertTask(h().db, h().connector, updated)).toEqual({
        crmId: opened.crmId,
        outcome: 'updated',
      });
      held = onlyWithKey(await h().tasks(), task.key);
      expect(held.status).toBe(openStatus);
      expect(held.body).toContain('2 attempts');

      const closed = { ...updated, status: 'closed' as const, body: 'Reached at 11:02.' };
      expect((await upsertTask(h().db, h().connector, closed)).crmId).toBe(opened.crmId);
      held = onlyWithKey(await h().tasks(), task.key);
      expect(held.status).toMatch(DONE);
      expect(held.body).toContain('Reached at 11:02.');
    });

    it('lost answer on create: the retry finds the task and updates it, one task', async () => {
      const { contact, e164 } = await seededContact(h(), 'Lost Task');
      const task = conformanceTask(h().account, e164, contact);
      h().loseNextAnswer('task');
      await expect(upsertTask(h().db, h().connector, task, { mayExist: false })).rejects.toThrow();
      expect(onlyWithKey(await h().tasks(), task.key).title).toBe(task.subject);

      const retry = { ...task, body: 'Written by the retry.' };
      const result = await upsertTask(h().db, h().connector, retry);
      expect(result.outcome).toBe('recovered');
      const held = onlyWithKey(await h().tasks(), task.key);
      expect(held.crmId).toBe(result.crmId);
      expect(held.body).toContain('Written by the retry.');
    });
  });
}
