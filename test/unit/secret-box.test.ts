import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError } from '../../lib/secret-box';
import { secretBoxFromConfig } from '../../lib/encryption-keys';

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };

describe('SecretBox', () => {
  it('opens what it sealed, and the sealed text holds neither the secret nor its context', () => {
    const box = new SecretBox([k1], 'k1');
    const sealed = box.seal('refresh-token-abc', 'hubspot-oauth:123');
    expect(sealed).toMatch(/^k1\./);
    expect(sealed).not.toContain('refresh-token-abc');
    expect(box.open(sealed, 'hubspot-oauth:123')).toBe('refresh-token-abc');
  });

  it('refuses a value moved to another context, and names the context but not the value', () => {
    const box = new SecretBox([k1], 'k1');
    const sealed = box.seal('secret-value', 'salesforce-oauth:a');
    expect(() => box.open(sealed, 'salesforce-oauth:b')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'salesforce-oauth:b')).toThrow(/salesforce-oauth:b.*"k1"/);
    expect(() => box.open(sealed, 'salesforce-oauth:b')).not.toThrow(/secret-value/);
  });

  it('still opens values sealed with an older key after the active key changes', () => {
    const sealed = new SecretBox([k1], 'k1').seal('old', 'c');
    const rotated = new SecretBox([k1, k2], 'k2');
    expect(rotated.open(sealed, 'c')).toBe('old');
    expect(rotated.seal('new', 'c')).toMatch(/^k2\./);
    expect(() => new SecretBox([k2], 'k2').open(sealed, 'c')).toThrow(/key "k1", which is not in/);
  });

  it('is built from temporal.encryption, and refuses to exist without keys', () => {
    const key = randomBytes(32).toString('base64');
    const box = secretBoxFromConfig({ encryption: { keys: [{ id: 'a', key }], activeKeyId: 'a' } });
    expect(box.open(box.seal('x', 'c'), 'c')).toBe('x');
    expect(() => secretBoxFromConfig({ encryption: 'off' })).toThrow(
      /^temporal\.encryption: .*only encrypted/,
    );
  });
});
