// Two-way contact sync for the CRM conformance suite: the platform emulator on one side, the
// destination's test server on the other, through the connector's contactBook (prepared once, as the
// contact sync activity does) and the engine that activity runs (sync/contacts/engine.ts). People
// on either side appear on the other once, a number typed differently still matches, and changes
// made on both sides are each written once: a run never writes back what the previous one wrote (no
// echo) and two runs never hand a field to and fro (no ping-pong). Counted twice: by the engine's
// summary and by the writes the test server itself took.
import { setTimeout as sleep } from 'node:timers/promises';
import { contactsConfigSchema } from '../../config/contact-sync';
import type { CrmContactBook } from '../../connectors/crm/contact-book';
import { destinationIdOf } from '../../connectors/crm/crm-connector';
import { createPlatformClient, type PlatformClient } from '../../connectors/platform';
import type { ContactSyncSummary } from '../../contracts';
import { DEFAULT_NOW, startEmulator } from '../../emulator';
import { runContactSync } from '../../sync/contacts/engine';
import { freshNumber } from './conformance-fixtures';
import type { DestinationHarness } from './destination-harness';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
type PlatformContact = Awaited<ReturnType<PlatformClient['settings']['contacts']['get']>>;

const PHONE_FIELDS = ['tel', 'mobile', 'tel_1', 'mobile_1', 'tel_2', 'mobile_2'] as const;

export function contactSyncScenarios(h: () => DestinationHarness): void {
  describe('two-way contact sync', () => {
    let emulator: Emulator | undefined;
    let platform: PlatformClient;
    let book: CrmContactBook;
    const contacts = () => platform.settings.contacts;
    const contactWrites = () => h().contactWrites!();
    const held = async (crmId: string) => (await h().heldContact!(crmId)) ?? {};
    const run = (): Promise<ContactSyncSummary> =>
      runContactSync({
        db: h().db,
        platform,
        book,
        config: contactsConfigSchema.parse({ enabled: true }),
        country: 'GB',
        scope: { account: h().account, destination: destinationIdOf(h().connector) },
      });
    // Runs come minutes apart in production: one waits out the vendor's search lag, if it has one.
    const nextRun = async () => {
      await sleep(h().connector.searchLagMs ?? 0);
      return run();
    };
    const onPlatformWith = async (e164: string): Promise<PlatformContact[]> => {
      const found: PlatformContact[] = [];
      for await (const c of contacts().list({ limit: 5000 })) {
        if (PHONE_FIELDS.some((f) => c[f] === e164)) found.push(c);
      }
      return found;
    };

    const ann = freshNumber();
    const bob = freshNumber();
    const cat = freshNumber();
    let annId = 0;
    let annCrm = '';

    beforeAll(async () => {
      emulator = await startEmulator({ port: 0, seed: 11, cdrs: 0, now: DEFAULT_NOW });
      // The emulator seeds a company's 2,000 contacts; the scenario's own people are what it is about
      // (a big book's pace is bench:contacts' and the vendors' own tests'), and a vendor that writes
      // one record a request would spend minutes creating the rest.
      emulator.store.tables.contacts.removeAll(emulator.admin.customer_id);
      platform = createPlatformClient({
        baseUrl: emulator.baseUrl,
        credentials: { type: 'apiKey', userId: emulator.admin.user_id, apiKey: emulator.admin.api_key },
        requestsPerSecond: 200,
      });
      book = h().connector.contactBook!({ country: 'GB', createAs: 'contact' });
      await book.prepare();
    });
    afterAll(async () => {
      await emulator?.close();
    });

    it('brings each person across once; a number typed another way still matches', async () => {
      annCrm = await h().seedContact({ name: 'Ann Same', phones: [ann.typed] });
      await h().seedContact({ name: 'Bob Crm', phones: [bob.typed] });
      annId = (await contacts().create({ first_name: 'Ann', last_name: 'Same', tel: ann.e164 })).id;
      await contacts().create({ first_name: 'Cat', last_name: 'Plat', mobile: cat.e164 });

      const summary = await nextRun();
      expect(summary.createdInCrm).toBeGreaterThanOrEqual(1);
      expect(summary.createdOnPlatform).toBeGreaterThanOrEqual(1);
      // Ann matched by number: still one Ann on each side.
      expect((await onPlatformWith(ann.e164)).map((c) => c.id)).toEqual([annId]);
      expect((await h().contactsWithPhone(ann.e164)).map((r) => r.crmId)).toEqual([annCrm]);
      // Bob came to the platform once, his number in E.164; Cat went to the CRM once.
      expect((await onPlatformWith(bob.e164)).map((c) => [c.first_name, c.last_name])).toEqual([
        ['Bob', 'Crm'],
      ]);
      const catHeld = await h().contactsWithPhone(cat.e164);
      expect(catHeld).toHaveLength(1);
      expect(await held(catHeld[0]!.crmId)).toMatchObject({ firstName: 'Cat', lastName: 'Plat' });
    });

    it('a run after it writes nothing: its own writes come back and are recognised', async () => {
      const before = contactWrites();
      for (let i = 0; i < 2; i++) {
        const summary = await nextRun();
        expect(summary).toMatchObject({
          createdInCrm: 0,
          createdOnPlatform: 0,
          updatedInCrm: 0,
          updatedOnPlatform: 0,
        });
      }
      expect(contactWrites()).toBe(before);
    });

    it('changes on both sides are each written once, never echoed, never handed back and forth', async () => {
      for (let round = 1; round <= 2; round++) {
        // Different fields of Ann on each side, between two runs.
        await contacts().update(annId, { first_name: `Ann${round}` });
        await h().editContact!(annCrm, { lastName: `Same${round}` });
        const before = contactWrites();
        const summary = await nextRun();
        expect([
          summary.updatedInCrm,
          summary.updatedOnPlatform,
          summary.createdInCrm,
          summary.createdOnPlatform,
        ]).toEqual([1, 1, 0, 0]);
        expect(contactWrites() - before).toBe(1);
        const onPlatform = await contacts().get(annId);
        expect([onPlatform.first_name, onPlatform.last_name]).toEqual([`Ann${round}`, `Same${round}`]);
        expect(await held(annCrm)).toMatchObject({ firstName: `Ann${round}`, lastName: `Same${round}` });

        // The next run reads all of that back and writes nothing, on either side.
        const quiet = await nextRun();
        expect([
          quiet.updatedInCrm,
          quiet.updatedOnPlatform,
          quiet.createdInCrm,
          quiet.createdOnPlatform,
        ]).toEqual([0, 0, 0, 0]);
        expect(contactWrites() - before).toBe(1);
      }
    });
  });
}
