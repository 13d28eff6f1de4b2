import { planSignals, type GroupableRow } from '../../server/relay-groups';

let n = 0;
function row(callId: number | null, body: Record<string, unknown> | string = {}): GroupableRow {
  n++;
  const text =
    typeof body === 'string'
      ? body
      : JSON.stringify({ id: `e${n}`, event_name: 'call.hold', call_id: callId, ...body });
  return { id: String(n), account: 'acme', call_id: callId, body: text };
}

describe('relay grouping (planSignals)', () => {
  it('puts each call’s events in one signal, in arrival order, calls in order of their first event', () => {
    const rows = [row(1), row(2), row(1), row(null), row(1)];
    const plan = planSignals(rows);
    expect(plan.done).toEqual([rows[3]!.id]);
    expect(plan.failed).toEqual([]);
    expect(plan.calls.map((chunks) => chunks.map((c) => c.rowIds))).toEqual([
      [[rows[0]!.id, rows[2]!.id, rows[4]!.id]],
      [[rows[1]!.id]],
    ]);
    const first = plan.calls[0]![0]!.signal;
    expect(first).toMatchObject({ workflowId: 'call-acme-1', account: 'acme', callId: 1 });
    expect(first.events.map((e) => e.eventId)).toEqual(
      [rows[0], rows[2], rows[4]].map((r) => (JSON.parse(r!.body) as { id: string }).id),
    );
  });

  it('splits a call’s events at the event limit', () => {
    const rows = Array.from({ length: 7 }, () => row(5));
    const plan = planSignals(rows, { maxEvents: 3 });
    expect(plan.calls).toHaveLength(1);
    expect(plan.calls[0]!.map((c) => c.rowIds.length)).toEqual([3, 3, 1]);
  });

  it('splits a call’s events by body size, so that no signal outgrows Temporal’s payload limit', () => {
    const big = 'x'.repeat(400);
    const rows = Array.from({ length: 5 }, () => row(6, { note: big }));
    const plan = planSignals(rows, { maxBodyChars: 1000 });
    expect(plan.calls[0]!.map((c) => c.rowIds.length)).toEqual([2, 2, 1]);
    // A single body larger than the limit still travels, alone.
    const huge = planSignals([row(7, { note: 'y'.repeat(3000) }), row(7)], { maxBodyChars: 1000 });
    expect(huge.calls[0]!.map((c) => c.rowIds.length)).toEqual([1, 1]);
  });

  it('keys a call by its stored body’s call id (a numeric string too) and keeps the whole body', () => {
    const r = row(9, { call_id: '9', event_name: 'call.transfer', transfer_to: '102' });
    const plan = planSignals([r]);
    expect(plan.calls[0]![0]!.signal.events[0]!.body).toMatchObject({ transfer_to: '102', call_id: '9' });
    expect(plan.calls[0]![0]!.signal.callId).toBe(9);
  });

  it('marks rows whose stored body no longer validates as failed, with why', () => {
    const bad = [row(3, { call_id: 0 }), row(4, '{not json')];
    const plan = planSignals(bad);
    expect(plan.calls).toEqual([]);
    expect(plan.failed.map((f) => f.id)).toEqual(bad.map((r) => r.id));
    expect(plan.failed[0]!.error).toContain('call_id');
  });
});
