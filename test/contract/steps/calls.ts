import { callTraceSchema, monitorSchema } from '../../../connectors/platform/schemas';
import { expectLabels, firstPage, firstRecord, idOf, parsedPage, type Step } from './step';

/** Calls module: live calls, web calls, lead calls, media sessions, call labels. */
export const callSteps: Step[] = [
  {
    endpoint: 'POST /calls',
    async run(ctx) {
      const call = await ctx.client.calls.create({ to: '+442071838750', from: String(ctx.admin.user_id) });
      expect(call.id).toBeGreaterThan(0);
      ctx.ids.liveCall = call.id;
    },
  },
  {
    endpoint: 'GET /calls',
    async run(ctx) {
      const page = await firstPage(ctx.client.calls.list());
      expect(page.data.map((c) => c.id)).toContain(idOf(ctx, 'liveCall'));
    },
  },
  {
    endpoint: 'GET /calls/{id}',
    async run(ctx) {
      const call = await ctx.client.calls.get(idOf(ctx, 'liveCall'));
      expect(call.dst).toBe('+442071838750');
    },
  },
  {
    endpoint: 'PATCH /calls/{id}',
    async run(ctx) {
      const call = await ctx.client.calls.update(idOf(ctx, 'liveCall'), { dst: '+442071838751' });
      expect(call.dst).toBe('+442071838751');
      // The action link stays on the live call and GET /calls/{id} shows it.
      await ctx.client.calls.update(idOf(ctx, 'liveCall'), {
        action_url: 'https://crm.example/contacts/42',
        action_text: 'Open Ada in the CRM',
      });
      const read = await ctx.client.calls.get(idOf(ctx, 'liveCall'));
      expect(read).toMatchObject({
        action_url: 'https://crm.example/contacts/42',
        action_text: 'Open Ada in the CRM',
      });
      await expect(
        ctx.client.calls.update(idOf(ctx, 'liveCall'), { action_url: 'javascript:alert(1)' }),
      ).rejects.toMatchObject({ status: 400 });
    },
  },
  {
    endpoint: 'GET /calls/{id}/trace',
    async run(ctx) {
      const page = await firstPage(ctx.client.calls.trace(idOf(ctx, 'liveCall')));
      // The live call's dialog so far (nothing yet on the emulator's fixed clock).
      for (const entry of parsedPage(callTraceSchema, page))
        expect(entry.created_at).toEqual(expect.any(String));
      // An ended call's trace (by the live id its CDR keeps) is its whole SIP dialog, from the INVITE.
      const cdr = await firstRecord(ctx.client.history.cdrs.list({ limit: 1 }));
      const ended = parsedPage(callTraceSchema, await firstPage(ctx.client.calls.trace(Number(cdr.live_id))));
      expect(ended.length).toBeGreaterThan(0);
      expect(ended[0]).toMatchObject({ method: 'INVITE', created_at: expect.any(String) });
    },
  },
  {
    endpoint: 'GET /calls/{id}/monitors',
    async run(ctx) {
      const page = await firstPage(ctx.client.calls.monitors(idOf(ctx, 'liveCall')));
      for (const m of parsedPage(monitorSchema, page)) expect(m.live_id).toBe(idOf(ctx, 'liveCall'));
    },
  },
  {
    endpoint: 'DELETE /calls/{id}',
    async run(ctx) {
      const result = await ctx.client.calls.hangup(idOf(ctx, 'liveCall'));
      expect(result.status).toBe(204);
      await expect(ctx.client.calls.get(idOf(ctx, 'liveCall'))).rejects.toMatchObject({ status: 404 });
    },
  },
  {
    endpoint: 'POST /webcalls',
    async run(ctx) {
      const webcall = await ctx.client.calls.webcalls.create({ from: '+442071838750', to: '+4930901820' });
      expect(webcall.id).toBeGreaterThan(0);
      ctx.ids.webcall = webcall.id;
    },
  },
  {
    endpoint: 'GET /webcalls',
    async run(ctx) {
      const page = await firstPage(ctx.client.calls.webcalls.list({ limit: 5000 }));
      expect(page.data.map((w) => w.id)).toContain(idOf(ctx, 'webcall'));
    },
  },
  {
    endpoint: 'POST /leadcalls',
    async run(ctx) {
      const call = await ctx.client.calls.leadCalls.create({
        to: '+33142685300',
        caller_id: '+442071838750',
        tts: 'Hello',
      });
      expect(call.id).toBeGreaterThan(0);
    },
  },
  {
    endpoint: 'GET /mediasessions',
    async run(ctx) {
      const session = await firstRecord(ctx.client.calls.mediaSessions.list());
      ctx.ids.mediaSession = session.id;
    },
  },
  {
    endpoint: 'GET /mediasessions/{id}',
    async run(ctx) {
      const session = await ctx.client.calls.mediaSessions.get(idOf(ctx, 'mediaSession'));
      expect(session.id).toBe(idOf(ctx, 'mediaSession'));
    },
  },
  {
    endpoint: 'GET /mediasessions/dictionaries',
    async run(ctx) {
      const session = await ctx.client.calls.mediaSessions.get(idOf(ctx, 'mediaSession'));
      expectLabels(await ctx.client.calls.mediaSessions.dictionaries(), ['type', 'status'], session);
    },
  },
  {
    endpoint: 'POST /calllabels',
    async run(ctx) {
      const label = await ctx.client.calls.labels.create({ name: 'Contract test', color: '#ff0000' });
      ctx.ids.label = label.id;
    },
  },
  {
    endpoint: 'GET /calllabels',
    async run(ctx) {
      const page = await firstPage(ctx.client.calls.labels.list({ limit: 5000 }));
      expect(page.data.map((l) => l.id)).toContain(idOf(ctx, 'label'));
    },
  },
  {
    endpoint: 'PATCH /calllabels/{id}',
    async run(ctx) {
      const label = await ctx.client.calls.labels.update(idOf(ctx, 'label'), { name: 'Renamed' });
      expect(label.name).toBe('Renamed');
    },
  },
  {
    endpoint: 'GET /calllabels/{id}',
    async run(ctx) {
      const label = await ctx.client.calls.labels.get(idOf(ctx, 'label'));
      expect(label.name).toBe('Renamed');
    },
  },
  {
    endpoint: 'DELETE /calllabels/{id}',
    async run(ctx) {
      expect((await ctx.client.calls.labels.delete(idOf(ctx, 'label'))).status).toBe(204);
      await expect(ctx.client.calls.labels.get(idOf(ctx, 'label'))).rejects.toMatchObject({ status: 404 });
    },
  },
];
