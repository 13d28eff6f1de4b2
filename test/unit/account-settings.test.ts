// Per-account settings (`accounts[].overrides`): what an account sets is its own, what it leaves out
// comes from the global sections, and a bad or misspelt override is an error that names the field.
import {
  callbacksOf,
  contactSyncOf,
  conversationsOf,
  crmDestinationOf,
  crmRulesOf,
  deletesCrmRecordsOf,
  outcomesOf,
  reportDeliveryOf,
  screenPopLinks,
} from '../../config/account-settings';
import { createOutcomeActivities } from '../../activities/outcome-activities';
import { contactSyncAccounts } from '../../runtime/contact-sync-schedule';
import { crmOutcomesAccounts } from '../../runtime/outcomes-schedule';
import { callerLink } from '../../activities/screen-pop-activities';
import type { CrmConnector, CrmContact } from '../../connectors/crm/crm-connector';
import type { ActivityDeps } from '../../activities/deps';
import { createCallbackActivities } from '../../activities/callback-activities';
import { ConfigError } from '../../config/load';
import { parseTestConfig } from '../support/test-config';

const platform = {
  baseUrl: 'https://pbx.example/v1.1/voipstudio',
  credentials: { type: 'apiKey' as const, userId: 7, apiKey: 'k-secret-123' },
};

const config = parseTestConfig({
  accounts: [
    { name: 'acme', platform },
    {
      name: 'beta',
      platform,
      crm: { type: 'salesforce', instanceUrl: 'https://beta.my.salesforce.com', accessToken: 't' },
      overrides: {
        crm: {
          matchRule: 'call_owner',
          owners: { ' Ann@Beta.example ': '005A' },
          createUnknownContacts: true,
        },
        callbacks: {
          assignTo: 'queue_agents',
          autoDial: { enabled: true, timezone: 'America/New_York', start: '08:00' },
        },
      },
    },
  ],
  crm: { matchRule: 'most_recent', owners: { 'ann@acme.example': '77' } },
  callbacks: { dueIn: '2h', autoDial: { end: '18:00' } },
});

/** The ConfigError message parsing `input` gives (fails the test when it parses). */
function configErrorOf(input: object): string {
  try {
    parseTestConfig(input);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the config parsed');
}

describe('per-account settings', () => {
  it('falls back to the global sections for an account without overrides', () => {
    expect(crmRulesOf(config, 'acme')).toEqual({
      matchRule: 'most_recent',
      owners: { 'ann@acme.example': '77' },
      createUnknownContacts: false,
    });
    expect(callbacksOf(config, 'acme')).toEqual(config.callbacks);
    expect(crmDestinationOf(config, 'acme')).toEqual({ type: 'builtin' });
  });

  it("uses an account's own values, field by field, over the global ones", () => {
    expect(crmRulesOf(config, 'beta')).toEqual({
      matchRule: 'call_owner',
      owners: { 'ann@beta.example': '005A' },
      createUnknownContacts: true,
    });
    const callbacks = callbacksOf(config, 'beta');
    expect(callbacks).toMatchObject({ assignTo: 'queue_agents', dueIn: 2 * 3_600_000 });
    // Business hours: its own zone and start, the global end and days.
    expect(callbacks.autoDial).toMatchObject({
      enabled: true,
      timezone: 'America/New_York',
      start: '08:00',
      end: '18:00',
      days: [1, 2, 3, 4, 5],
    });
    expect(crmDestinationOf(config, 'beta')).toMatchObject({ type: 'salesforce' });
  });

  it("delivers an account's reports its own way, as a whole, or the global way", () => {
    const withDelivery = parseTestConfig({
      accounts: [
        { name: 'acme', platform },
        {
          name: 'beta',
          platform,
          overrides: { reports: { delivery: { email: { outboxDir: '/srv/beta-outbox' } } } },
        },
      ],
      reports: { delivery: { email: { outboxDir: '/srv/outbox' }, attachmentMaxBytes: 1000 } },
    });
    expect(reportDeliveryOf(withDelivery, 'acme')).toBe(withDelivery.reports.delivery);
    expect(reportDeliveryOf(withDelivery, 'beta').email.outboxDir).toBe('/srv/beta-outbox');
    // As a whole: the global attachment limit is not beta's.
    expect(reportDeliveryOf(withDelivery, 'beta').attachmentMaxBytes).toBe(10 * 1024 * 1024);
  });

  it("gives each account's callback workflow its own business hours (the callbackSettings activity)", async () => {
    const activities = createCallbackActivities({ config } as unknown as ActivityDeps);
    expect((await activities.callbackSettings({ account: 'acme' })).autoDial).toMatchObject({
      enabled: false,
      timezone: 'Europe/London',
      start: '09:00',
      end: '18:00',
    });
    expect(await activities.callbackSettings({ account: 'beta' })).toMatchObject({
      dueInMs: 2 * 3_600_000,
      autoDial: { enabled: true, timezone: 'America/New_York', start: '08:00', end: '18:00' },
    });
  });

  it('starts screen-pops only for accounts whose ringing calls can get a link', () => {
    // acme keeps call logs in the built-in destination, which has no pages: nothing to link to.
    expect(screenPopLinks(config, 'acme')).toBe(false);
    expect(screenPopLinks(config, 'beta')).toBe(true); // Salesforce has its contact pages
    const templated = parseTestConfig({
      accounts: [
        {
          name: 'acme',
          platform,
          overrides: { conversations: { screenPop: { contactUrl: 'https://crm.example/{id}' } } },
        },
        {
          name: 'beta',
          platform,
          crm: { type: 'salesforce', instanceUrl: 'https://b.my.salesforce.com', accessToken: 't' },
        },
      ],
      conversations: { screenPop: { enabled: false } },
    });
    expect(screenPopLinks(templated, 'acme')).toBe(false); // off everywhere, whatever its template
    expect(screenPopLinks(templated, 'beta')).toBe(false);
    const on = parseTestConfig({
      accounts: [
        {
          name: 'acme',
          platform,
          overrides: { conversations: { screenPop: { contactUrl: 'https://crm.example/{id}' } } },
        },
      ],
    });
    expect(screenPopLinks(on, 'acme')).toBe(true); // its own link template
    expect(screenPopLinks(on, 'stored-later')).toBe(true); // an account the config does not know yet
  });

  it('names a bad or misspelt override', () => {
    const message = configErrorOf({
      accounts: [
        {
          name: 'acme',
          platform,
          overrides: {
            crm: { matchRule: 'newest', createUnknownContact: true },
            callbacks: { autoDial: { start: '25:00' } },
          },
        },
      ],
    });
    expect(message).toMatch(/accounts\[0\]\.overrides\.crm\.matchRule/);
    expect(message).toMatch(/accounts\[0\]\.overrides\.crm: .*createUnknownContact/);
    expect(message).toMatch(/accounts\[0\]\.overrides\.callbacks\.autoDial\.start: must be HH:MM/);
  });

  describe('conversations (screen-pop, SMS, voicemail)', () => {
    const withConversations = parseTestConfig({
      accounts: [
        { name: 'acme', platform },
        {
          name: 'beta',
          platform,
          overrides: {
            conversations: {
              sms: false,
              every: '5m',
              screenPop: {
                contactUrl: 'https://beta.example/people/{id}?from={e164}',
                contactText: 'Beta: {name}',
                unknownCacheMaxAge: '1m',
              },
            },
          },
        },
        // Back to its destination's own pages despite the global templates.
        { name: 'gamma', platform, overrides: { conversations: { screenPop: { contactUrl: null } } } },
      ],
      conversations: {
        voicemail: false,
        screenPop: {
          contactUrl: 'https://acme.example/contacts/{id}',
          createContactUrl: 'https://acme.example/new?phone={e164}',
        },
      },
    });

    it('falls back to the global section for an account without overrides', () => {
      expect(conversationsOf(withConversations, 'acme')).toEqual(withConversations.conversations);
    });

    it("uses an account's own values field by field, screen-pop's included", () => {
      const beta = conversationsOf(withConversations, 'beta');
      expect(beta).toMatchObject({
        sms: false,
        voicemail: false,
        every: 5 * 60_000,
        lookback: 2 * 86_400_000,
      });
      expect(beta.screenPop).toEqual({
        ...withConversations.conversations.screenPop,
        contactUrl: 'https://beta.example/people/{id}?from={e164}',
        contactText: 'Beta: {name}',
        unknownCacheMaxAge: 60_000,
      });
      // The global section is left as it was (the resolver copies, never writes through).
      expect(withConversations.conversations.screenPop.contactUrl).toBe('https://acme.example/contacts/{id}');
    });

    it("links each account's screen-pop by its own template, or its destination's page for null", async () => {
      const crm = {
        contactPageUrl: async (c: { crmId: string }) => `https://crm.example/record/${c.crmId}`,
      } as unknown as CrmConnector;
      const contact: CrmContact = {
        crmId: '42',
        kind: 'contact',
        name: 'Ann Lee',
        ownerId: null,
        updatedAt: null,
      };
      const link = (account: string) =>
        callerLink(crm, conversationsOf(withConversations, account).screenPop, '+442079460555', contact);
      expect(await link('acme')).toEqual({
        url: 'https://acme.example/contacts/42',
        text: 'Open Ann Lee in the CRM',
      });
      expect(await link('beta')).toEqual({
        url: 'https://beta.example/people/42?from=%2B442079460555',
        text: 'Beta: Ann Lee',
      });
      expect(await link('gamma')).toEqual({
        url: 'https://crm.example/record/42',
        text: 'Open Ann Lee in the CRM',
      });
      // gamma dropped only the known caller's template; the global "create" template stays its own.
      expect(conversationsOf(withConversations, 'gamma').screenPop.createContactUrl).toBe(
        'https://acme.example/new?phone={e164}',
      );
    });

    it('names a bad or misspelt conversations override by its path', () => {
      const message = configErrorOf({
        accounts: [
          { name: 'acme', platform },
          {
            name: 'beta',
            platform,
            overrides: {
              conversations: {
                sms: 'no',
                every: 'often',
                screenPop: { contactUrl: 'crm.example/{id}', template: 'https://x/{id}' },
              },
            },
          },
        ],
      });
      expect(message).toMatch(/accounts\[1\]\.overrides\.conversations\.sms: /);
      expect(message).toMatch(/accounts\[1\]\.overrides\.conversations\.every: must look like 30s/);
      expect(message).toMatch(
        /accounts\[1\]\.overrides\.conversations\.screenPop\.contactUrl: must be an http\(s\) URL template/,
      );
      expect(message).toMatch(/accounts\[1\]\.overrides\.conversations\.screenPop: .*"template"/);
    });
  });

  describe('contact sync and outcomes', () => {
    const hubspot = { type: 'hubspot', accessToken: 'pat-1' } as const;
    const salesforce = {
      type: 'salesforce',
      instanceUrl: 'https://gx.my.salesforce.com',
      accessToken: 't',
    } as const;
    const withSync = parseTestConfig({
      accounts: [
        { name: 'acme', platform, crm: hubspot },
        {
          name: 'globex',
          platform,
          crm: salesforce,
          overrides: {
            contacts: {
              deletes: 'ignore',
              salesforceCreateAs: 'Lead',
              fields: { email: 'crm' },
              every: '1h',
            },
            outcomes: { enabled: false, map: { 'Left Voicemail': 'Voicemail' } },
          },
        },
        {
          name: 'hooli',
          platform,
          crm: hubspot,
          overrides: { contacts: { enabled: false }, outcomes: { labelPrefix: 'HS: ' } },
        },
      ],
      contacts: { enabled: true, fields: { notes: 'platform' } },
      outcomes: { labelPrefix: 'CRM: ', map: { Connected: 'Reached' } },
    });

    it("merges an account's contact sync settings over the global ones, field ownership field by field", () => {
      expect(contactSyncOf(withSync, 'acme')).toEqual(withSync.contacts);
      expect(contactSyncOf(withSync, 'globex')).toMatchObject({
        enabled: true,
        deletes: 'ignore',
        salesforceCreateAs: 'Lead',
        every: 3_600_000,
        fields: { notes: 'platform', email: 'crm' },
      });
      // Each schedule follows its account's own switch: hooli turned its sync off.
      expect(contactSyncAccounts(withSync)).toEqual(['acme', 'globex']);
    });

    it('schedules the contact sync of a Dynamics 365 account too (its connector keeps a contact book)', () => {
      const dynamics = {
        type: 'dynamics',
        url: 'https://contoso.crm4.dynamics.com',
        tenantId: 'contoso.onmicrosoft.com',
        clientId: '0f4c7c1e-5f1b-4b8e-9a4e-3d2f3c9b8a71',
        clientSecret: 's',
      } as const;
      const config = parseTestConfig({
        accounts: [{ name: 'initech', platform, crm: dynamics }],
        contacts: { enabled: true },
      });
      expect(contactSyncAccounts(config)).toEqual(['initech']);
    });

    it("uses an account's own outcome rules; its map replaces the global one", async () => {
      expect(outcomesOf(withSync, 'acme')).toEqual(withSync.outcomes);
      expect(outcomesOf(withSync, 'globex')).toMatchObject({
        enabled: false,
        labelPrefix: 'CRM: ',
        map: { 'Left Voicemail': 'Voicemail' },
      });
      expect(outcomesOf(withSync, 'hooli')).toMatchObject({
        labelPrefix: 'HS: ',
        map: { Connected: 'Reached' },
      });
      expect(crmOutcomesAccounts(withSync)).toEqual(['acme', 'hooli']);
      // A pass of an account whose outcomes are off writes nothing, whatever its schedule.
      const activities = createOutcomeActivities({
        config: withSync,
        warehouse: { db: {} },
      } as unknown as ActivityDeps);
      expect(await activities.applyCrmOutcomes({ account: 'globex' })).toMatchObject({
        skipped: 'outcomes.enabled is false for globex',
        written: 0,
      });
    });

    it('names a bad or misspelt contacts or outcomes override by its path', () => {
      const message = configErrorOf({
        accounts: [
          {
            name: 'acme',
            platform,
            overrides: {
              contacts: { deletes: 'erase', fields: { fax: 'crm' } },
              outcomes: { labelPrefx: 'x', batchSize: 0 },
            },
          },
        ],
      });
      expect(message).toMatch(/accounts\[0\]\.overrides\.contacts\.deletes: /);
      expect(message).toMatch(/accounts\[0\]\.overrides\.contacts\.fields: .*"fax"/);
      expect(message).toMatch(/accounts\[0\]\.overrides\.outcomes: .*"labelPrefx"/);
      expect(message).toMatch(/accounts\[0\]\.overrides\.outcomes\.batchSize: /);
    });
  });

  it("deletes what callsync created in an account's CRM on erasure by its own choice", () => {
    const withErasure = parseTestConfig({
      accounts: [
        { name: 'acme', platform },
        { name: 'beta', platform, overrides: { erasure: { deleteCrmRecords: false } } },
      ],
      erasure: { deleteCrmRecords: true },
    });
    expect(deletesCrmRecordsOf(withErasure, 'acme')).toBe(true);
    expect(deletesCrmRecordsOf(withErasure, 'beta')).toBe(false);
    // The hash key is the suppression list's, one for every account: not an override.
    expect(() =>
      parseTestConfig({ accounts: [{ name: 'acme', platform, overrides: { erasure: { hashKey: 'x' } } }] }),
    ).toThrow(/accounts\[0\]\.overrides\.erasure: .*"hashKey"/);
  });
});
