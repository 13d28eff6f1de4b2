// Pure parts of the emulator server: template conversion, collection query parsing, fault decisions,
// session idling, CLI option parsing.
import { parseEmulatorOptions } from '../../cli/commands/emulator';
import { SessionRegistry, TOKEN_IDLE_MS } from '../../emulator/server/auth/sessions';
import { readCredential } from '../../emulator/server/auth/credentials';
import { parseCollectionQuery, DEFAULT_LIMIT } from '../../emulator/server/collection-query';
import { FaultRegistry, faultInputSchema } from '../../emulator/server/faults';
import { HttpError } from '../../emulator/server/http-error';
import { templateRegExp, toRouterPath } from '../../emulator/server/paths';
import { createClock } from '../../emulator/store';

function errorsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err.errors;
    throw err;
  }
  throw new Error('expected an HttpError');
}

describe('paths', () => {
  it('converts spec templates to router paths', () => {
    expect(toRouterPath('/cdrs/{id}.trace')).toBe('/cdrs/:id.trace');
    expect(toRouterPath('/users/{id}/smsthreads/{from}/{to}')).toBe('/users/:id/smsthreads/:from/:to');
  });

  it('matches concrete paths of a template', () => {
    expect(templateRegExp('/cdrs/{id}.trace').test('/cdrs/12.trace')).toBe(true);
    expect(templateRegExp('/cdrs/{id}.trace').test('/cdrs/12xtrace')).toBe(false);
    expect(templateRegExp('/cdrs/{id}').test('/cdrs/12/notes')).toBe(false);
  });
});

describe('collection query', () => {
  it('defaults page and limit', () => {
    expect(parseCollectionQuery({})).toEqual({ page: 1, limit: DEFAULT_LIMIT, filter: [] });
  });

  it('parses filter and group_by, lower-casing operators and accepting a single condition', () => {
    const q = parseCollectionQuery({
      page: '3',
      limit: '50',
      filter: JSON.stringify({ property: 'type', operator: 'EQ', value: 'M' }),
      group_by: 'src',
    });
    expect(q).toEqual({
      page: 3,
      limit: 50,
      filter: [{ property: 'type', operator: 'eq', value: 'M' }],
      groupBy: 'src',
    });
  });

  it('names the bad parameter', () => {
    expect(parseCollectionQuery({ limit: '10000' }).limit).toBe(5000); // a page holds at most 5000
    expect(errorsOf(() => parseCollectionQuery({ limit: '0' }))[0]).toMatch(/^limit: /);
    expect(errorsOf(() => parseCollectionQuery({ page: '-1' }))[0]).toMatch(/^page: /);
    expect(errorsOf(() => parseCollectionQuery({ filter: '{' }))).toEqual(['filter: is not valid JSON']);
    expect(
      errorsOf(() => parseCollectionQuery({ filter: '[{"property":"a","operator":"eq","value":[1]}]' }))[0],
    ).toMatch(/^filter\[0\]\.value: /);
    expect(errorsOf(() => parseCollectionQuery({ group_by: 'a b' }))[0]).toMatch(/^group_by: /);
  });
});

describe('faults', () => {
  it('matches by route key, template or *', () => {
    const faults = new FaultRegistry(1);
    faults.add(faultInputSchema.parse({ route: 'GET /cdrs', status: 500 }));
    expect(faults.decide('GET /cdrs')?.status).toEqual({ code: 500 });
    expect(faults.decide('GET /users')).toBeUndefined();
    faults.clear();
    faults.add(faultInputSchema.parse({ route: '/cdrs', latency_ms: 10 }));
    faults.add(faultInputSchema.parse({ latency_ms: 5 }));
    expect(faults.decide('PATCH /cdrs')?.latencyMs).toBe(15);
  });

  it('applies a probability reproducibly for the same seed', () => {
    const run = (seed: number) => {
      const faults = new FaultRegistry(seed);
      faults.add(faultInputSchema.parse({ status: 503, probability: 0.3 }));
      return Array.from({ length: 200 }, () => (faults.decide('GET /cdrs') ? 1 : 0));
    };
    const hits = run(42).reduce<number>((a, b) => a + b, 0);
    expect(hits).toBeGreaterThan(30);
    expect(hits).toBeLessThan(90);
    expect(run(42)).toEqual(run(42));
  });

  it('gives 429 a default Retry-After', () => {
    const faults = new FaultRegistry(1);
    faults.add(faultInputSchema.parse({ status: 429 }));
    expect(faults.decide('GET /cdrs')?.status).toEqual({ code: 429, retryAfterS: 1 });
  });
});

describe('sessions', () => {
  it('idles out after 15 minutes of the clock and refreshes on use', () => {
    const clock = createClock();
    const sessions = new SessionRegistry(() => clock);
    const { token } = sessions.create(1, 1);
    clock.advance(TOKEN_IDLE_MS);
    expect(sessions.use(token).state).toBe('valid');
    clock.advance(TOKEN_IDLE_MS + 1);
    expect(sessions.use(token).state).toBe('expired');
    expect(sessions.use(token).state).toBe('unknown');
  });
});

describe('credentials', () => {
  it('reads Basic, X-Auth-Token and Bearer', () => {
    const basic = Buffer.from('12:tok:en').toString('base64');
    expect(readCredential({ authorization: `Basic ${basic}` })).toEqual({ userId: '12', secret: 'tok:en' });
    expect(readCredential({ 'x-auth-token': 'abc' })).toEqual({ secret: 'abc' });
    expect(readCredential({ authorization: 'Bearer xyz' })).toEqual({ secret: 'xyz' });
    expect(readCredential({})).toBeUndefined();
    expect(() => readCredential({ authorization: 'Digest x' })).toThrow(HttpError);
  });
});

describe('CLI options', () => {
  it('parses and validates the emulator options', () => {
    expect(
      parseEmulatorOptions({ port: '0', host: '127.0.0.1', seed: '7', cdrs: '1000', logLevel: 'info' }),
    ).toEqual({ port: 0, host: '127.0.0.1', seed: 7, cdrs: 1000, logLevel: 'info' });
    expect(() =>
      parseEmulatorOptions({ port: '70000', host: 'h', seed: '1', cdrs: '1', logLevel: 'info' }),
    ).toThrow(/--port/);
  });
});
