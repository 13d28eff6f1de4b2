import { randomBytes } from 'node:crypto';
import { ApplicationFailure, defaultPayloadConverter, type FailureConverter } from '@temporalio/common';
import { AesGcmPayloadCodec, ENCODING_ENCRYPTED, METADATA_KEY_ID } from '../../lib/payload-codec';
import { callerKey } from '../../lib/caller-key';
import { temporalDataConverter } from '../../runtime/temporal-encryption';
import { encryptionBlock, payloadCodecFromConfig, workflowIdKey } from '../../lib/encryption-keys';
import { temporalConfigSchema } from '../../config/temporal';

const keyA = { id: 'a', key: randomBytes(32) };
const keyB = { id: 'b', key: randomBytes(32) };
const text = (b: Uint8Array | null | undefined) => Buffer.from(b ?? new Uint8Array()).toString('utf8');
const secret = { number: '+442079460555', name: 'Ada Lovelace' };

describe('AesGcmPayloadCodec', () => {
  it('encrypts a payload so its content is gone, with the key id in the metadata, and decrypts it back', async () => {
    const codec = new AesGcmPayloadCodec([keyA], 'a');
    const plain = defaultPayloadConverter.toPayload(secret);
    const [enc] = await codec.encode([plain]);
    expect(text(enc!.metadata!.encoding)).toBe(ENCODING_ENCRYPTED);
    expect(text(enc!.metadata![METADATA_KEY_ID])).toBe('a');
    expect(text(enc!.data)).not.toContain('+442079460555');
    expect(text(enc!.data)).not.toContain('Ada');
    const [dec] = await codec.decode([enc!]);
    expect(defaultPayloadConverter.fromPayload(dec!)).toEqual(secret);
  });

  it('uses a fresh IV each time (same input, different ciphertext)', async () => {
    const codec = new AesGcmPayloadCodec([keyA], 'a');
    const plain = defaultPayloadConverter.toPayload(secret);
    const [x] = await codec.encode([plain]);
    const [y] = await codec.encode([plain]);
    expect(Buffer.from(x!.data!).equals(Buffer.from(y!.data!))).toBe(false);
  });

  it('reads payloads of an older key after rotation, and writes with the new one', async () => {
    const [old] = await new AesGcmPayloadCodec([keyA], 'a').encode([
      defaultPayloadConverter.toPayload(secret),
    ]);
    const rotated = new AesGcmPayloadCodec([keyA, keyB], 'b');
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([old!]))[0]!)).toEqual(secret);
    const [fresh] = await rotated.encode([defaultPayloadConverter.toPayload(1)]);
    expect(text(fresh!.metadata![METADATA_KEY_ID])).toBe('b');
  });

  it('names the missing key id, and refuses a tampered payload or a swapped key id', async () => {
    const [enc] = await new AesGcmPayloadCodec([keyA], 'a').encode([
      defaultPayloadConverter.toPayload(secret),
    ]);
    await expect(new AesGcmPayloadCodec([keyB], 'b').decode([enc!])).rejects.toThrow(
      'payload was encrypted with key "a", which is not in temporal.encryption.keys',
    );
    const tampered = { ...enc!, data: Buffer.from(enc!.data!) };
    tampered.data[20]! ^= 1;
    const codec = new AesGcmPayloadCodec([keyA, { id: 'b', key: keyA.key }], 'a');
    await expect(codec.decode([tampered])).rejects.toThrow('does not authenticate with key "a"');
    // Same key under another id: the id is authenticated data, so this fails too.
    const relabelled = { ...enc!, metadata: { ...enc!.metadata, [METADATA_KEY_ID]: Buffer.from('b') } };
    await expect(codec.decode([relabelled])).rejects.toThrow('does not authenticate with key "b"');
  });

  it('passes unencrypted payloads (histories from before encryption) through on decode', async () => {
    const plain = defaultPayloadConverter.toPayload({ x: 1 });
    expect(await new AesGcmPayloadCodec([keyA], 'a').decode([plain])).toEqual([plain]);
  });

  it('refuses keys that are not 32 bytes and an active id that is not a key', () => {
    expect(() => new AesGcmPayloadCodec([{ id: 'a', key: randomBytes(16) }], 'a')).toThrow(
      'must be 32 bytes',
    );
    expect(() => new AesGcmPayloadCodec([keyA], 'z')).toThrow('"z" is not among the keys');
  });
});

describe('temporal.encryption config', () => {
  const parse = (encryption: unknown, extra: object = {}) =>
    temporalConfigSchema.safeParse({ encryption, ...extra });

  it('names the field of a bad block', () => {
    const noActive = parse({ keys: [{ id: 'a', key: keyA.key.toString('base64') }], activeKeyId: 'b' });
    expect(noActive.success).toBe(false);
    expect(noActive.error!.issues[0]!.path).toEqual(['encryption', 'activeKeyId']);
    const both = parse({ keys: [{ id: 'a', key: 'x', keyFile: '/k' }], activeKeyId: 'a' });
    expect(both.error!.issues[0]!.message).toBe('give exactly one of key and keyFile');
    const dup = parse({
      keys: [
        { id: 'a', key: 'x' },
        { id: 'a', key: 'y' },
      ],
      activeKeyId: 'a',
    });
    expect(dup.error!.issues[0]!.message).toBe('key id "a" appears twice');
  });

  it('builds the codec from inline keys and key files; errors name the setting, never the key', () => {
    const parsed = temporalConfigSchema.parse({
      encryption: {
        keys: [
          { id: 'a', keyFile: '/keys/a' },
          { id: 'b', key: keyB.key.toString('base64') },
        ],
        activeKeyId: 'b',
        idKey: randomBytes(32).toString('base64'),
      },
    });
    const t = { ...parsed, encryption: encryptionBlock(parsed)! };
    const read = ((path: string) => {
      if (path === '/keys/a') return `${keyA.key.toString('base64')}\n`;
      throw Object.assign(new Error('nope'), { code: 'ENOENT' });
    }) as never;
    expect(payloadCodecFromConfig(t, read)?.activeKeyId).toBe('b');
    expect(temporalDataConverter(t, read).payloadCodecs).toHaveLength(1);
    expect(() =>
      payloadCodecFromConfig(
        { ...t, encryption: { ...t.encryption, keys: [{ id: 'b', keyFile: '/x' }] } },
        read,
      ),
    ).toThrow('temporal.encryption.keys[0].keyFile: cannot read /x (ENOENT)');
    const short = randomBytes(16).toString('base64');
    let message = '';
    try {
      payloadCodecFromConfig({ ...t, encryption: { ...t.encryption, keys: [{ id: 'b', key: short }] } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('temporal.encryption.keys[0].key: must be base64 of 32 bytes, not 16');
    expect(message).not.toContain(short);
    expect(workflowIdKey(t)).toHaveLength(32);
  });

  it('without keys refuses to start, naming the setting, unless encryption is "off"', () => {
    expect(() => temporalDataConverter(temporalConfigSchema.parse({}))).toThrow(
      'temporal.encryption: is not set, and callsync does not send personal data to Temporal in clear',
    );
    expect(() => payloadCodecFromConfig(temporalConfigSchema.parse({}))).toThrow(
      /callsync keys generate --out <file>.*or set temporal.encryption to "off"/,
    );
    const off = temporalConfigSchema.parse({ encryption: 'off' });
    expect(payloadCodecFromConfig(off)).toBeUndefined();
    expect(temporalDataConverter(off).payloadCodecs).toBeUndefined();
    expect(workflowIdKey(off)).toBeUndefined();
    // requireEncryption (before encryption was required): true is the default now, false is refused.
    expect(() => payloadCodecFromConfig(temporalConfigSchema.parse({ requireEncryption: true }))).toThrow(
      'temporal.encryption: is not set',
    );
    const legacy = temporalConfigSchema.safeParse({ requireEncryption: false });
    expect(legacy.error!.issues[0]).toMatchObject({
      path: ['requireEncryption'],
      message: expect.stringContaining('set temporal.encryption to "off"'),
    });
    expect(temporalConfigSchema.safeParse({ encryption: 'on' }).success).toBe(false);
  });

  it('encodes failure messages and stack traces (the codec then encrypts them)', async () => {
    const converter = temporalDataConverter(temporalConfigSchema.parse({ encryption: 'off' }));
    const { failureConverter } = (await import(converter.failureConverterPath!)) as {
      failureConverter: FailureConverter;
    };
    const failure = failureConverter.errorToFailure(
      ApplicationFailure.nonRetryable('no contact with phone +442079460123', 'CrmBadRequestError'),
      defaultPayloadConverter,
    );
    expect(failure.message).toBe('Encoded failure');
    expect(failure.stackTrace).toBe('');
    expect(JSON.stringify(failure)).not.toContain('2079460123');
    const back = failureConverter.failureToError(failure, defaultPayloadConverter);
    expect(back.message).toBe('no contact with phone +442079460123');
  });
});

describe('callerKey', () => {
  it('is a stable keyed hash, different per key and account, with no digits of the number', () => {
    const k = randomBytes(32);
    const h = callerKey(k, 'acme', '+442079460555');
    expect(h).toMatch(/^[0-9a-f]{32}$/);
    expect(callerKey(k, 'acme', '+442079460555')).toBe(h);
    expect(callerKey(randomBytes(32), 'acme', '+442079460555')).not.toBe(h);
    expect(callerKey(k, 'other', '+442079460555')).not.toBe(h);
    expect(h).not.toContain('2079460555');
  });
});
