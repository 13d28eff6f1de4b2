// The simulated day's plan (bench/simulation/day-plan.ts): the same seed gives the same day, callers
// call again, some calls last hours, and the stack is disturbed inside the day.
import { DAY_S, planDays, SCENARIO_MIX } from '../../bench/simulation/day-plan';

const known = Array.from({ length: 40 }, (_, i) => `+4420700000${String(i).padStart(2, '0')}`);
const unknown = ['+447946000001', '+447946000002'];

describe('simulated day plan', () => {
  const opts = { seed: 11, days: 1, callsPerDay: 140, knownNumbers: known, unknownNumbers: unknown };

  it('is the same for the same seed and differs for another', () => {
    expect(planDays(opts)).toEqual(planDays(opts));
    expect(planDays({ ...opts, seed: 12 }).traffic).not.toEqual(planDays(opts).traffic);
  });

  it('brings about the calls asked for, callers calling again, long calls, unknown callers and SMS', () => {
    const plan = planDays(opts);
    const calls = plan.traffic.filter((t) => t.kind === 'call');
    expect(calls.length).toBeGreaterThan(100);
    expect(calls.length).toBeLessThan(200);
    const perNumber = new Map<string, number>();
    for (const c of calls) perNumber.set(c.number, (perNumber.get(c.number) ?? 0) + 1);
    expect(Math.max(...perNumber.values())).toBeGreaterThan(2);
    expect(calls.some((c) => unknown.includes(c.number))).toBe(true);
    expect(calls.filter((c) => c.kind === 'call' && (c.talkS ?? 0) > 2 * 3600).length).toBeGreaterThan(0);
    expect(plan.traffic.some((t) => t.kind === 'sms')).toBe(true);
    for (const c of calls) if (c.kind === 'call') expect(Object.keys(SCENARIO_MIX)).toContain(c.scenario);
    const times = plan.traffic.map((t) => t.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(plan.endsAt).toBe(times.at(-1));
  });

  it('disturbs the stack once of each kind a day, inside the day', () => {
    const plan = planDays({ ...opts, days: 2 });
    expect(plan.disruptions.map((d) => d.kind).sort()).toEqual(
      ['outage', 'outage', 'receiver_restart', 'receiver_restart', 'worker_restart', 'worker_restart'].sort(),
    );
    for (const d of plan.disruptions) expect(d.at).toBeLessThan(2 * DAY_S);
    const outage = plan.disruptions.find((d) => d.kind === 'outage')!;
    expect(outage.durationS).toBeGreaterThanOrEqual(2 * 3600);
  });

  it('keeps a part of a day to its first hours', () => {
    const plan = planDays({ ...opts, days: 0.5 });
    for (const t of plan.traffic) expect(t.at).toBeLessThan(DAY_S / 2);
    expect(plan.disruptions.every((d) => d.at < DAY_S / 2)).toBe(true);
  });

  it('names the field it cannot work without', () => {
    expect(() => planDays({ ...opts, knownNumbers: [] })).toThrow('knownNumbers');
  });
});
