// Accounts onboarded at run time: the account file is checked with the config file's own schema
// (errors name the field, never the value), the config file's names are refused, a stored account
// shadowed by a file account of the same name is left out, and `crm import --since` reads both forms.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTestConfig } from '../support/test-config';
import { SecretBox } from '../../lib/secret-box';
import { callLegOf } from '../../activities/crm-import';
import { parseSince, progressLine } from '../../cli/commands/crm';
import { cdrSchema } from '../../connectors/platform';
import {
  mergeStoredAccounts,
  parseAccountInput,
  storeAccount,
  StoredAccountError,
} from '../../runtime/stored-accounts';

const platform = {
  baseUrl: 'https://voip.example.com/v1.1/voipstudio',
  credentials: { type: 'apiKey', userId: 7, apiKey: 'secret-api-key-do-not-print' },
};
const config = parseTestConfig({ accounts: [{ name: 'acme', platform }] });

describe('stored accounts', () => {
  it('parses an account file in accounts[] shape, named by --name', () => {
    const a = parseAccountInput('globex', { platform, webhookSecret: 'x'.repeat(20) });
    expect(a.name).toBe('globex');
    expect(a.platform.baseUrl).toBe(platform.baseUrl);
  });

  it('names every bad field and never echoes a value', () => {
    const bad = () =>
      parseAccountInput('globex', {
        platform: { ...platform, baseUrl: 'not a url secret-api-key-do-not-print' },
        webhookSecret: 'short-secret',
      });
    expect(bad).toThrow(StoredAccountError);
    expect(bad).toThrow(/platform\.baseUrl/);
    expect(bad).toThrow(/webhookSecret: must be at least 16 characters/);
    expect(bad).not.toThrow(/secret-api-key|short-secret/);
    expect(() => parseAccountInput('globex', [])).toThrow(/must be a JSON object/);
    expect(() => parseAccountInput('globex', { name: 'other', platform })).toThrow(
      /name: differs from --name/,
    );
  });

  it('refuses a name the config file has', async () => {
    const box = new SecretBox([{ id: 'k', key: randomBytes(32) }], 'k');
    await expect(
      storeAccount({} as never, box, { fileAccounts: ['acme'], name: 'acme', input: { platform } }),
    ).rejects.toThrow(/"acme" is an account of the config file/);
  });

  it('merges stored accounts after the file’s; a name the file took is left out and reported', () => {
    const shadowed: string[] = [];
    const merged = mergeStoredAccounts(
      config,
      [parseAccountInput('acme', { platform }), parseAccountInput('globex', { platform })],
      (n) => shadowed.push(n),
    );
    expect(merged.accounts.map((a) => a.name)).toEqual(['acme', 'globex']);
    expect(merged.accounts[0]).toBe(config.accounts[0]);
    expect(shadowed).toEqual(['acme']);
    expect(mergeStoredAccounts(config, [])).toBe(config);
  });
});

describe('crm import', () => {
  it('reads --since as a duration back from now or a UTC date, else names the option', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(parseSince('90d', now).toISOString()).toBe('2026-08-29T12:00:00.000Z');
    expect(parseSince('2026-10-01', now).toISOString()).toBe('2026-10-01T00:00:00.000Z');
    expect(() => parseSince('ninety days', now)).toThrow(/^--since: /);
    expect(() => parseSince('2026-13-45', now)).toThrow(/^--since: /);
  });

  it('takes the leg with talk time (then the latest) as the call, as the live path does', () => {
    const leg = (id: number, billsec: number) => cdrSchema.parse({ id, live_id: 1, billsec, type: 'I' });
    expect(callLegOf([leg(1, 0), leg(2, 30), leg(3, 0)])?.id).toBe(2);
    expect(callLegOf([leg(1, 0), leg(3, 0)])?.id).toBe(3);
    expect(callLegOf([])).toBeUndefined();
  });

  it('prints done/total, what was logged, and calls per second', () => {
    const line = progressLine('acme', {
      done: 250,
      total: 1000,
      created: 240,
      alreadyLogged: 10,
      failed: 0,
      elapsedMs: 2000,
      callsPerSecond: 125,
    });
    expect(line).toBe(
      'crm import acme: 250/1000 calls (25%), 240 logged, 10 already there, 0 refused, 125 calls/s',
    );
  });
});

describe('docs/platform.md "Onboarding a company"', () => {
  it('shows an account file that `accounts add` accepts', () => {
    const guide = readFileSync(join(__dirname, '../../docs/platform.md'), 'utf8');
    const start = guide.indexOf('## Onboarding a company');
    expect(start).toBeGreaterThanOrEqual(0);
    const section = guide.slice(start);
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const account = parseAccountInput('globex', JSON.parse(block!) as unknown);
    expect(account.crm?.type).toBe('hubspot');
  });
});
