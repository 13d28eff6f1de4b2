// The erasure key: its own setting first, else the callback id key; errors name the setting.
import { randomBytes } from 'node:crypto';
import { parseTestConfig } from '../support/test-config';
import { erasureHashKey } from '../../lib/encryption-keys';

const base = {
  accounts: [
    {
      name: 'acme',
      platform: { baseUrl: 'http://x', credentials: { type: 'apiKey', userId: 1, apiKey: 'k' } },
    },
  ],
};

describe('erasure config', () => {
  it('uses erasure.hashKey, else the callback id key, else none; deleteCrmRecords is off by default', () => {
    const own = randomBytes(16).toString('base64');
    const idKey = randomBytes(16).toString('base64');
    const encryption = {
      keys: [{ id: 'a', key: randomBytes(32).toString('base64') }],
      activeKeyId: 'a',
      idKey,
    };
    const both = parseTestConfig({ ...base, temporal: { encryption }, erasure: { hashKey: own } });
    expect(erasureHashKey(both)?.toString('base64')).toBe(own);
    expect(both.erasure.deleteCrmRecords).toBe(false);
    expect(erasureHashKey(parseTestConfig({ ...base, temporal: { encryption } }))?.toString('base64')).toBe(
      idKey,
    );
    expect(erasureHashKey(parseTestConfig(base))).toBeUndefined();
  });

  it('refuses a short key and two keys, naming the setting', () => {
    expect(() => erasureHashKey(parseTestConfig({ ...base, erasure: { hashKey: 'c2hvcnQ=' } }))).toThrow(
      /erasure\.hashKey: must be base64 of at least 16 bytes/,
    );
    expect(() => parseTestConfig({ ...base, erasure: { hashKey: 'a', hashKeyFile: '/k' } })).toThrow(
      /hashKey/,
    );
    expect(() =>
      erasureHashKey(parseTestConfig({ ...base, erasure: { hashKeyFile: '/nonexistent/key' } })),
    ).toThrow(/erasure\.hashKeyFile: cannot read \/nonexistent\/key/);
  });
});
