// The CRM conformance suite (issue 31): one set of scenarios every CRM destination passes, run once
// per destination against its test server, through the product's own paths (connectors/crm/upsert.ts,
// match.ts, the connector's outcomes() and delete methods). A destination joins with a harness
// (destination-harness.ts) and a test file that calls describeCrmConformance.
//
// Jest registers tests before any harness exists, so the destination declares its name and features
// up front; the groups of features it does not claim are not registered at all (no test skips), and
// one test checks that the declaration is what the harness and its connector really have, so a
// destination cannot claim less than it implements, nor more.
import { callLogScenarios } from './conformance-call-logs';
import { contactSyncScenarios } from './conformance-contact-sync';
import { matchScenarios } from './conformance-match';
import { messageScenarios } from './conformance-messages';
import { taskScenarios } from './conformance-tasks';
import { vendorRuleScenarios } from './conformance-vendor-rules';
import type { DestinationHarness, HarnessFactory } from './destination-harness';

/** What a destination declares before its harness is built: its name and the features it claims. */
export type DestinationDeclaration = Pick<DestinationHarness, 'name' | 'features'>;

/** Registers the conformance scenarios for one destination (a describe named after it). */
export function describeCrmConformance(factory: HarnessFactory, declared: DestinationDeclaration): void {
  const { features } = declared;
  describe(`${declared.name} (CRM conformance)`, () => {
    let harness: DestinationHarness | undefined;
    const h = (): DestinationHarness => {
      if (!harness) throw new Error(`the ${declared.name} harness was not built (see beforeAll's error)`);
      return harness;
    };
    beforeAll(async () => {
      harness = await factory();
    });
    afterAll(async () => {
      await harness?.dispose();
    });

    it('claims exactly the features its connector and test server implement', () => {
      const { connector: c } = h();
      expect(h().name).toBe(declared.name);
      expect(h().features).toEqual(features);
      const implemented = {
        owners: typeof c.ownerId === 'function',
        messages: typeof c.createMessageLog === 'function' && typeof c.updateMessageLog === 'function',
        outcomes: typeof c.outcomes === 'function' && typeof h().setOutcome === 'function',
        erasure:
          typeof c.deleteCallLog === 'function' &&
          typeof c.deleteTask === 'function' &&
          (!features.messages || typeof c.deleteMessageLog === 'function') &&
          (!features.createContacts || typeof c.deleteContact === 'function'),
        rateLimits: typeof h().tightenRateLimit === 'function' && typeof h().tooManyRequests === 'function',
        tokenExpiry: typeof h().expireTokens === 'function',
        contactSync:
          typeof c.contactBook === 'function' &&
          typeof h().editContact === 'function' &&
          typeof h().heldContact === 'function' &&
          typeof h().contactWrites === 'function',
      };
      // createContact is a required method of every connector: createContacts is the destination's word.
      const { createContacts: _declaredByTheDestination, ...claimed } = features;
      expect(claimed).toEqual(implemented);
    });

    matchScenarios(h, features);
    callLogScenarios(h);
    taskScenarios(h);
    if (features.messages) messageScenarios(h);
    if (features.contactSync) contactSyncScenarios(h);
    vendorRuleScenarios(h, features);
  });
}
