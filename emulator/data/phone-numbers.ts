import type { Rng } from './prng';

/** Countries the seeded contacts and numbers come from. */
export const COUNTRIES = ['GB', 'US', 'DE', 'FR', 'ES', 'PL', 'NL', 'AU'] as const;
export type Country = (typeof COUNTRIES)[number];

/** Digit patterns of real numbering plans: X any digit, N 2-9 (so the numbers parse as valid). */
interface NumberingPlan {
  cc: string;
  landline: readonly string[];
  mobile: readonly string[];
  /** Per-minute outbound rates, landline and mobile (in the customer's currency). */
  rates: readonly [number, number];
  codec: 'PCMA' | 'PCMU';
}

const PLANS: Record<Country, NumberingPlan> = {
  GB: {
    cc: '44',
    landline: ['207NXXXXXX', '203NXXXXXX', '208NXXXXXX', '161NXXXXXX', '1312XXXXXX', '1314XXXXXX'],
    mobile: ['77NXXXXXXX', '78NXXXXXXX', '79NXXXXXXX', '74NXXXXXXX'],
    rates: [0.009, 0.035],
    codec: 'PCMA',
  },
  US: {
    cc: '1',
    landline: ['212NXXXXXX', '646NXXXXXX', '312NXXXXXX', '415NXXXXXX', '617NXXXXXX', '202NXXXXXX'],
    mobile: ['305NXXXXXX', '512NXXXXXX', '206NXXXXXX', '303NXXXXXX', '404NXXXXXX', '713NXXXXXX'],
    rates: [0.012, 0.012],
    codec: 'PCMU',
  },
  DE: {
    cc: '49',
    landline: ['30NXXXXXXX', '89NXXXXXXX', '40NXXXXXXX', '69NXXXXXXX'],
    mobile: ['151XXXXXXXX', '152XXXXXXXX', '176XXXXXXXX', '160XXXXXXX'],
    rates: [0.014, 0.049],
    codec: 'PCMA',
  },
  FR: {
    cc: '33',
    landline: ['1NXXXXXXX', '4NXXXXXXX', '3NXXXXXXX'],
    mobile: ['61XXXXXXX', '62XXXXXXX', '64XXXXXXX', '66XXXXXXX', '75XXXXXXX', '77XXXXXXX', '78XXXXXXX'],
    rates: [0.015, 0.052],
    codec: 'PCMA',
  },
  ES: {
    cc: '34',
    landline: ['91NXXXXXX', '93NXXXXXX', '96NXXXXXX'],
    mobile: ['6NXXXXXXX', '60XXXXXXX'],
    rates: [0.016, 0.055],
    codec: 'PCMA',
  },
  PL: {
    cc: '48',
    landline: ['22NXXXXXX', '12NXXXXXX', '61NXXXXXX'],
    mobile: ['50NXXXXXX', '51NXXXXXX', '60NXXXXXX', '66NXXXXXX', '69NXXXXXX', '79NXXXXXX', '88NXXXXXX'],
    rates: [0.021, 0.038],
    codec: 'PCMA',
  },
  NL: {
    cc: '31',
    landline: ['20NXXXXXX', '10NXXXXXX', '30NXXXXXX', '70NXXXXXX'],
    mobile: ['61XXXXXXX', '62XXXXXXX', '64XXXXXXX', '65XXXXXXX'],
    rates: [0.017, 0.061],
    codec: 'PCMA',
  },
  AU: {
    cc: '61',
    landline: ['29NXXXXXX', '39NXXXXXX', '73NXXXXXX'],
    mobile: ['41XXXXXXX', '42XXXXXXX', '43XXXXXXX', '40XXXXXXX'],
    rates: [0.028, 0.072],
    codec: 'PCMA',
  },
};

function fill(rng: Rng, pattern: string): string {
  let s = '';
  for (const c of pattern) {
    if (c === 'X') s += String(rng.int(0, 9));
    else if (c === 'N') s += String(rng.int(2, 9));
    else s += c;
  }
  return s;
}

/** A valid E.164 number (`+` and digits) of the country, landline or mobile. */
export function e164(rng: Rng, country: Country, mobile: boolean): string {
  const plan = PLANS[country];
  return `+${plan.cc}${fill(rng, rng.pick(mobile ? plan.mobile : plan.landline))}`;
}

/** Calling-code and mobile prefixes per country, longest calling code first (so +1 never shadows +12…). */
const PREFIXES = COUNTRIES.map((c) => ({
  country: c,
  cc: `+${PLANS[c].cc}`,
  mobile: PLANS[c].mobile.map((p) => p.replace(/[XN].*$/, '')),
})).sort((a, b) => b.cc.length - a.cc.length);

/** The country of an E.164 number produced by `e164`, by calling code. */
export function countryOf(number: string): Country | undefined {
  for (const p of PREFIXES) {
    if (number.startsWith(p.cc)) return p.country;
  }
  return undefined;
}

/** Whether a number produced by `e164` is a mobile one. */
export function isMobile(number: string): boolean {
  for (const p of PREFIXES) {
    if (number.startsWith(p.cc)) return p.mobile.some((m) => number.startsWith(m, p.cc.length));
  }
  return false;
}

// Calls draw numbers from fixed pools (contacts, repeat callers), so rates are memoised per number.
const rates = new Map<string, number>();

/** Per-minute outbound rate to a number. */
export function rateFor(number: string): number {
  let r = rates.get(number);
  if (r === undefined) {
    const c = countryOf(number);
    r = c === undefined ? 0.05 : PLANS[c].rates[isMobile(number) ? 1 : 0];
    if (rates.size < 100_000) rates.set(number, r);
  }
  return r;
}

/** The calling code of a country (`44`). */
export function callingCode(country: Country): string {
  return PLANS[country].cc;
}

/** The usual PSTN trunk codec for a country. */
export function trunkCodec(number: string): 'PCMA' | 'PCMU' {
  const c = countryOf(number);
  return c === undefined ? 'PCMA' : PLANS[c].codec;
}
