// The contact sync's pure parts: matching by E.164 number and e-mail with the match rules, field
// ownership (no change moves nothing; newest, owner and merge rules), and per-account CRM destinations.
import { formatContactSyncStatus, type ContactSyncStatusRow } from '../../cli/commands/status-contact-sync';
import { DEFAULT_OWNERSHIP } from '../../config/contact-sync';
import { REJECTED_PREFIX } from '../../connectors/postgres/repositories/contact-sync';
import { parseTestConfig } from '../support/test-config';
import { crmDestinationOf, createCrmConnectors } from '../../runtime/crm';
import { keepUnwritable } from '../../sync/contacts/engine';
import { ALREADY_LINKED, matchContacts, matchRefused } from '../../sync/contacts/match';
import { resolvePair } from '../../sync/contacts/merge';
import type { ContactState, SideRecord } from '../../connectors/crm/contact-model';
import { emptyState, mergeLines } from '../../sync/contacts/model';
import { platformRecord } from '../../sync/contacts/platform-side';

const state = (s: Partial<ContactState>): ContactState => ({ ...emptyState(), ...s });
const crm = (
  id: string,
  numbers: string[],
  email: string | null = null,
  modifiedAt = '2026-01-01T00:00:00Z',
): SideRecord => ({
  id,
  state: state({ email }),
  numbers,
  modifiedAt,
  kind: 'contact',
});

describe('matching', () => {
  const p = platformRecord(
    { id: 7, tel: '020 7946 0101', mobile_2: '+44 7911 123456', email: 'Ann@Example.com' },
    'GB',
  );

  it('reads every tel*/mobile* number as E.164 and the e-mail in lower case', () => {
    expect(p.numbers).toEqual(['+442079460101', '+447911123456']);
    expect(p.state.email).toBe('ann@example.com');
  });

  it('links a single candidate found by any number', () => {
    const r = matchContacts({
      platform: [p],
      crm: [crm('c1', ['+447911123456'])],
      linkedPlatform: new Set(),
      linkedCrm: new Set(),
      rule: 'unique',
    });
    expect(r.links.get('7')?.id).toBe('c1');
    expect(r.ambiguities).toEqual([]);
  });

  it('several candidates: unique links only the one matching on e-mail too, else records the ambiguity', () => {
    const both = [crm('c1', ['+442079460101']), crm('c2', ['+442079460101'], 'ann@example.com')];
    const r1 = matchContacts({
      platform: [p],
      crm: both,
      linkedPlatform: new Set(),
      linkedCrm: new Set(),
      rule: 'unique',
    });
    expect(r1.links.get('7')?.id).toBe('c2');
    const neither = [crm('c1', ['+442079460101']), crm('c2', ['+442079460101'])];
    const r2 = matchContacts({
      platform: [p],
      crm: neither,
      linkedPlatform: new Set(),
      linkedCrm: new Set(),
      rule: 'unique',
    });
    expect(r2.links.size).toBe(0);
    expect(r2.ambiguities).toEqual([
      expect.objectContaining({ side: 'platform', recordId: '7', candidates: ['c1', 'c2'] }),
    ]);
    // Neither candidate is copied to the platform as a new person.
    expect([...r2.claimedCrm].sort()).toEqual(['c1', 'c2']);
    const r3 = matchContacts({
      platform: [p],
      crm: [crm('c1', ['+442079460101'], null, '2026-02-01T00:00:00Z'), crm('c2', ['+442079460101'])],
      linkedPlatform: new Set(),
      linkedCrm: new Set(),
      rule: 'most_recent',
    });
    expect(r3.links.get('7')?.id).toBe('c1');
  });
});

describe("records the CRM's duplicate rule named for a refused create", () => {
  const p = platformRecord({ id: 8, tel: '020 7946 0707', email: 'ivy@example.com' }, 'GB');
  const lead = (id: string): SideRecord => ({ ...crm(id, ['+442079460707']), kind: 'lead' });

  it('links the one free record, a Contact before a Lead, as a search match would', () => {
    const r = matchRefused(
      [{ platform: p, named: [lead('00Q1'), crm('0031', ['+442079460707'])] }],
      new Set(),
      'unique',
    );
    expect(r.links.get('8')?.id).toBe('0031');
    expect(r.ambiguities).toEqual([]);
  });

  it('records linked already (or in this run) are not free: an ambiguity, nothing linked', () => {
    const named = [crm('0031', ['+442079460707'])];
    const r = matchRefused([{ platform: p, named }], new Set(['0031']), 'unique');
    expect(r.links.size).toBe(0);
    expect(r.ambiguities).toEqual([
      { side: 'platform', recordId: '8', candidates: ['0031'], reason: ALREADY_LINKED },
    ]);
    // Two refused creates naming the same record: the first links it, the second is left alone.
    const q = platformRecord({ id: 9, tel: '020 7946 0707' }, 'GB');
    const two = matchRefused(
      [
        { platform: p, named },
        { platform: q, named },
      ],
      new Set(),
      'unique',
    );
    expect([...two.links].map(([pid, c]) => [pid, c.id])).toEqual([['8', '0031']]);
    expect(two.ambiguities.map((a) => a.recordId)).toEqual(['9']);
  });

  it('several Contacts go through the match rule', () => {
    const named = [crm('0031', ['+442079460707']), crm('0032', ['+442079460707'], 'ivy@example.com')];
    expect(matchRefused([{ platform: p, named }], new Set(), 'unique').links.get('8')?.id).toBe('0032');
    const neither = [crm('0031', ['+442079460707']), crm('0032', ['+442079460707'])];
    const r = matchRefused([{ platform: p, named: neither }], new Set(), 'unique');
    expect(r.links.size).toBe(0);
    expect(r.ambiguities[0]?.candidates).toEqual(['0031', '0032']);
  });
});

describe('field ownership', () => {
  const base = {
    fields: ['firstName', 'company', 'notes'] as const,
    ownership: DEFAULT_OWNERSHIP,
    newer: 'platform' as const,
  };

  it('a change on one side goes to the other; nothing changed, nothing written', () => {
    const prev = state({ firstName: 'Ann', company: 'A' });
    const r = resolvePair({
      ...base,
      prevPlatform: prev,
      prevCrm: prev,
      platform: prev,
      crm: state({ firstName: 'Ann', company: 'B' }),
    });
    expect([r.platformFields, r.crmFields, r.platform.company]).toEqual([['company'], [], 'B']);
    const none = resolvePair({ ...base, prevPlatform: prev, prevCrm: prev, platform: prev, crm: prev });
    expect([none.platformFields, none.crmFields]).toEqual([[], []]);
  });

  it('both sides changed the same field: the newer wins; an owner side always wins; notes merge', () => {
    const prev = state({ company: 'A', notes: 'one' });
    const r = resolvePair({
      ...base,
      prevPlatform: prev,
      prevCrm: prev,
      platform: state({ company: 'P', notes: 'one\ntwo' }),
      crm: state({ company: 'C', notes: 'one\nthree' }),
    });
    expect(r.crm.company).toBe('P');
    expect(r.platform.notes).toBe('one\ntwo\nthree');
    expect(r.crm.notes).toBe('one\ntwo\nthree');
    const crmOwns = resolvePair({
      ...base,
      ownership: { ...DEFAULT_OWNERSHIP, company: 'crm' },
      prevPlatform: prev,
      prevCrm: prev,
      platform: state({ company: 'P' }),
      crm: state({ company: 'A' }),
    });
    expect([crmOwns.platformFields, crmOwns.platform.company]).toEqual([['company'], 'A']);
  });

  it('merging lines is stable: merging the merged result again changes nothing', () => {
    const once = mergeLines('a\nb', 'b\nc');
    expect(once).toBe('a\nb\nc');
    expect(mergeLines(once, once)).toBe(once);
  });
});

describe('per-account CRM destination', () => {
  it('an account with its own crm gets its own connector; the others share crm.destination', () => {
    const platform = {
      baseUrl: 'http://127.0.0.1:1/v1.1/voipstudio',
      credentials: { type: 'apiKey', userId: 1, apiKey: 'k' },
    };
    const config = parseTestConfig({
      accounts: [
        { name: 'a', platform },
        { name: 'b', platform, crm: { type: 'hubspot', accessToken: 'pat-b' } },
        { name: 'c', platform },
      ],
      crm: { destination: { type: 'hubspot', accessToken: 'pat-shared' } },
      logLevel: 'silent',
    });
    expect(crmDestinationOf(config, 'b')).toMatchObject({ accessToken: 'pat-b' });
    const crmOf = createCrmConnectors(config, undefined as never);
    expect(crmOf('a')).toBe(crmOf('c'));
    expect(crmOf('b')).not.toBe(crmOf('a'));
    expect(crmOf('b').name).toBe('hubspot');
  });
});

describe('fields a CRM record cannot be written', () => {
  it("leaves a Salesforce Contact's company (its Account's name) as the record holds it", () => {
    const r = resolvePair({
      fields: ['firstName', 'company'],
      ownership: DEFAULT_OWNERSHIP,
      prevPlatform: state({ firstName: 'Ann', company: 'Old' }),
      prevCrm: state({ firstName: 'Ann', company: 'Acct' }),
      platform: state({ firstName: 'Anne', company: 'New' }),
      crm: state({ firstName: 'Ann', company: 'Acct' }),
      newer: 'platform',
    });
    expect(r.crmFields).toEqual(['firstName', 'company']);
    const kept = keepUnwritable(r, state({ firstName: 'Ann', company: 'Acct' }), ['firstName']);
    // Not sent, and stored as it is, so reading it back moves nothing.
    expect(kept.crmFields).toEqual(['firstName']);
    expect([kept.crm.firstName, kept.crm.company]).toEqual(['Anne', 'Acct']);
    expect(keepUnwritable(r, r.crm, ['firstName', 'company'])).toBe(r);
  });
});

describe('status', () => {
  it('lists records the CRM refused apart from ambiguous matches', () => {
    const row = {
      account: 'acme',
      destination: 'salesforce',
      phase: 'incremental',
      stage: 'done',
      done: 3,
      total: 3,
      links: 2,
      run_finished_at: null,
      last_error: null,
      counters: {},
      ambiguities: [
        {
          side: 'platform',
          record_id: '7',
          candidates: ['003A', '003B'],
          reason: '2 records share a number',
        },
        {
          side: 'platform',
          record_id: '9',
          candidates: [],
          reason: `${REJECTED_PREFIX}REQUIRED_FIELD_MISSING: Required fields are missing: [LastName]`,
        },
      ],
    } as unknown as ContactSyncStatusRow;
    const text = formatContactSyncStatus([row]);
    expect(text).toContain('AMBIGUOUS: 1 (nothing written for these)\n      platform 7 → 003A, 003B');
    expect(text).toContain(
      'REJECTED: 1 (refused by the CRM; tried again next run, a held edit when a record changes)\n      platform 9: REQUIRED_FIELD_MISSING: Required fields are missing: [LastName]',
    );
  });
});
