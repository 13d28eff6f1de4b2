import { RateMeter } from '../../lib/rate-meter';

describe('RateMeter', () => {
  let now = 0;
  const meter = (windowMs = 1000, buckets = 10) => new RateMeter({ windowMs, buckets, now: () => now });
  beforeEach(() => {
    now = 10_000;
  });

  it('reports events per second over the window', () => {
    const m = meter();
    for (let i = 0; i < 10; i++) {
      m.mark(50);
      now += 100;
    }
    expect(m.perSecond()).toBe(500 - 50); // the first bucket just left the window
    m.mark(3);
    expect(m.perSecond()).toBe(453);
  });

  it('forgets events older than the window, bucket by bucket', () => {
    const m = meter();
    m.mark(100);
    now += 500;
    m.mark(20);
    expect(m.perSecond()).toBe(120);
    now += 600;
    expect(m.perSecond()).toBe(20);
    now += 5_000;
    expect(m.perSecond()).toBe(0);
  });

  it('scales to the window length', () => {
    const m = meter(200, 4);
    m.mark(10);
    expect(m.perSecond()).toBe(50);
  });

  it('refuses a window it cannot cut', () => {
    expect(() => meter(0)).toThrow(/windowMs/);
    expect(() => meter(1000, 0)).toThrow(/buckets/);
  });
});
