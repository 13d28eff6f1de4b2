// Phone search against Salesforce's documented search-index tokens: the test server's tokeniser (a
// vendor rule, tested once here) and callsync's search terms, groups and hit filtering against it.
import {
  FIND_MAX_CHARS,
  findText,
  holdsNumber,
  numberTerms,
  searchGroups,
  searchNumbers,
  SOSL_MAX_ROWS,
} from '../../connectors/salesforce/phone-search';
import { findPredicate, searchTokens } from '../fakes/salesforce-search';

const indexed = (...values: string[]) => new Set(values.flatMap(searchTokens));

describe("the test server's SOSL tokens (Salesforce's FIND reference)", () => {
  it('splits at spaces, punctuation and letter/digit changes, case-insensitively', () => {
    expect(searchTokens('+44 (0)20 7946-0571 ext12')).toEqual(['44', '0', '20', '7946', '0571', 'ext', '12']);
  });

  it('matches whole tokens only: the E.164 digits miss a spaced number, its last group finds it', () => {
    const spaced = indexed('+44 20 7946 0571');
    expect(findPredicate('442079460571')!(spaced)).toBe(false);
    expect(findPredicate('2079460571')!(spaced)).toBe(false);
    expect(findPredicate('0571')!(spaced)).toBe(true);
    expect(findPredicate('442079460571')!(indexed('+442079460571'))).toBe(true);
    expect(findPredicate('999 OR 7946')!(spaced)).toBe(true);
    expect(findPredicate('7946 0572')!(spaced)).toBe(false); // words of one term must all match
    expect(findPredicate('79*')!(spaced)).toBe(true);
  });

  it('returns nothing for a search over 10,000 characters', () => {
    expect(findPredicate(`${'1234 OR '.repeat(1300)}0571`)).toBeNull();
  });
});

describe('callsync phone search terms', () => {
  it('searches every form the last token of a typed number can take, and matches only the number', () => {
    const t = numberTerms('+442079460571');
    expect(t.match).toEqual(['442079460571', '2079460571']);
    expect(t.search).toEqual(
      expect.arrayContaining(['442079460571', '2079460571', '02079460571', '0571', '60571', '9460571']),
    );
    for (const typed of [
      '+44 20 7946 0571',
      '020 7946 0571',
      '(020) 79460571',
      '+44 (0)20 7946-0571',
      '02079460571',
    ]) {
      const tokens = indexed(typed);
      expect([typed, findPredicate(findText([t]))!(tokens)]).toEqual([typed, true]);
      expect([typed, holdsNumber([typed], t.match)]).toEqual([typed, true]);
    }
    // Another number sharing the last group is found by the search but not kept.
    expect(findPredicate(findText([t]))!(indexed('+44 161 496 0571'))).toBe(true);
    expect(holdsNumber(['+44 161 496 0571'], t.match)).toBe(false);
  });

  it('keeps each search under the length at which Salesforce drops its operators', () => {
    const numbers = Array.from({ length: 120 }, (_, i) => numberTerms(`+4420794${String(60000 + i)}`));
    const groups = searchGroups(numbers);
    expect(groups.flat()).toHaveLength(120);
    expect(groups.length).toBeGreaterThan(1);
    for (const g of groups) expect(findText(g).length).toBeLessThanOrEqual(FIND_MAX_CHARS);
  });

  it('splits a search that came back full (2,000 records may have been cut short)', async () => {
    const numbers = ['+442079460571', '+442079460572'];
    const finds: string[] = [];
    const full = Array.from({ length: SOSL_MAX_ROWS }, () => ({ Phone: '+44 161 496 0000' }));
    const found = await searchNumbers(
      numbers,
      async (find) => {
        finds.push(find);
        if (finds.length === 1) return full;
        return find.includes('0572') ? [{ Phone: '020 7946 0572' }] : [{ Phone: '+44 20 7946 0571' }];
      },
      (h) => [h.Phone],
    );
    expect(finds).toHaveLength(3);
    expect([...found.keys()].sort()).toEqual(numbers);
  });
});
