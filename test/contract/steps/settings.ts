import { callTrackingCampaignSchema, cdrSchema, ddiSchema } from '../../../connectors/platform/schemas';
import { expectLabels, firstPage, firstRecord, idOf, parsedPage, type Step } from './step';

/** Settings module: call flows, call tracking, contacts, conferences, DDIs, queues, groups, rules, IVRs. */
export const settingsSteps: Step[] = [
  {
    endpoint: 'GET /callflows',
    async run(ctx) {
      ctx.ids.callFlow = (await firstRecord(ctx.client.settings.callFlows.list())).id;
    },
  },
  {
    endpoint: 'GET /callflows/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.callFlows.get(idOf(ctx, 'callFlow'))).id).toBe(idOf(ctx, 'callFlow'));
    },
  },
  {
    endpoint: 'GET /callflows/dictionaries',
    async run(ctx) {
      const flow = await ctx.client.settings.callFlows.get(idOf(ctx, 'callFlow'));
      expectLabels(await ctx.client.settings.callFlows.dictionaries(), ['status'], flow);
    },
  },
  {
    endpoint: 'GET /calltracking/campaigns',
    async run(ctx) {
      const campaigns = parsedPage(
        callTrackingCampaignSchema,
        await firstPage(ctx.client.settings.callTracking.campaigns.list()),
      );
      for (const c of campaigns) expect(c.name).toEqual(expect.any(String));
    },
  },
  {
    endpoint: 'POST /calltracking/campaigns',
    async run(ctx) {
      const c = await ctx.client.settings.callTracking.campaigns.create({
        name: 'Spring campaign',
        url: 'https://acme.example/spring',
        rules: [],
      });
      ctx.ids.campaign = c.id;
    },
  },
  {
    endpoint: 'GET /calltracking/ddis',
    async run(ctx) {
      const ddi = await firstRecord(ctx.client.settings.callTracking.ddis.list());
      ctx.ids.trackingDdi = ddi.e164!;
    },
  },
  {
    endpoint: 'PATCH /calltracking/ddis',
    async run(ctx) {
      await ctx.client.settings.callTracking.ddis.bulkUpdate([
        { e164: String(ctx.ids.trackingDdi), campaign_id: idOf(ctx, 'campaign') },
      ]);
    },
  },
  {
    endpoint: 'GET /calltracking/cdrs',
    async run(ctx) {
      const cdrs = parsedPage(cdrSchema, await firstPage(ctx.client.settings.callTracking.cdrs.list()));
      for (const c of cdrs) expect(c.id).toBeGreaterThan(0);
    },
  },
  {
    endpoint: 'POST /contacts',
    async run(ctx) {
      const c = await ctx.client.settings.contacts.create({
        first_name: 'Ada',
        last_name: 'Lovelace',
        company: 'Analytical Engines Ltd',
        tel: '+442079460000',
        email: 'ada@engines.example',
      });
      expect(c.tel).toBe('+442079460000');
      ctx.ids.contact = c.id;
    },
  },
  {
    endpoint: 'GET /contacts',
    async run(ctx) {
      const page = await firstPage(ctx.client.settings.contacts.list({ limit: 100 }));
      expect(page.total).toBeGreaterThan(100);
      ctx.ids.seededContact = page.data[0]!.id;
    },
  },
  {
    endpoint: 'PATCH /contacts',
    async run(ctx) {
      await ctx.client.settings.contacts.bulkUpdate([{ id: idOf(ctx, 'contact'), group_name: 'VIP' }]);
      expect((await ctx.client.settings.contacts.get(idOf(ctx, 'contact'))).group_name).toBe('VIP');
    },
  },
  {
    endpoint: 'PATCH /contacts/{id}',
    async run(ctx) {
      const c = await ctx.client.settings.contacts.update(idOf(ctx, 'contact'), {
        notes: 'Prefers mornings',
      });
      expect(c.notes).toBe('Prefers mornings');
    },
  },
  {
    endpoint: 'GET /contacts/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.contacts.get(idOf(ctx, 'contact'))).last_name).toBe('Lovelace');
    },
  },
  {
    endpoint: 'GET /contacts/{id}/cdrs',
    async run(ctx) {
      const page = await firstPage(ctx.client.settings.contacts.cdrs(idOf(ctx, 'seededContact')));
      const tag = `contact:${idOf(ctx, 'seededContact')}`;
      expect(page.data.every((c) => c.src_id === tag || c.dst_id === tag)).toBe(true);
    },
  },
  {
    endpoint: 'DELETE /contacts/{ids}',
    async run(ctx) {
      expect([202, 204]).toContain(
        (await ctx.client.settings.contacts.delete([idOf(ctx, 'contact')])).status,
      );
    },
  },
  {
    endpoint: 'POST /conferences',
    async run(ctx) {
      const c = await ctx.client.settings.conferences.create({
        name: 'All hands',
        pin: '1234',
        monitor: false,
      });
      ctx.ids.conference = c.id;
    },
  },
  {
    endpoint: 'GET /conferences',
    async run(ctx) {
      const page = await firstPage(ctx.client.settings.conferences.list({ limit: 5000 }));
      expect(page.data.map((c) => c.id)).toContain(idOf(ctx, 'conference'));
    },
  },
  {
    endpoint: 'PATCH /conferences/{id}',
    async run(ctx) {
      expect(
        (await ctx.client.settings.conferences.update(idOf(ctx, 'conference'), { pin: '4321' })).pin,
      ).toBe('4321');
    },
  },
  {
    endpoint: 'GET /conferences/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.conferences.get(idOf(ctx, 'conference'))).name).toBe('All hands');
    },
  },
  {
    endpoint: 'DELETE /conferences/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.conferences.delete(idOf(ctx, 'conference'))).status).toBe(204);
    },
  },
  {
    endpoint: 'GET /ddis',
    async run(ctx) {
      const ddi = await firstRecord(ctx.client.settings.ddis.list());
      expect(ddi.e164).toMatch(/^\+?\d{8,15}$/);
      ctx.ids.ddi = ddi.e164!;
    },
  },
  {
    endpoint: 'GET /ddis/{e164}',
    async run(ctx) {
      expect((await ctx.client.settings.ddis.get(String(ctx.ids.ddi))).e164).toBe(ctx.ids.ddi);
    },
  },
  {
    endpoint: 'GET /ddis/calltracking',
    async run(ctx) {
      const ddis = parsedPage(ddiSchema, await firstPage(ctx.client.settings.ddis.callTracking()));
      for (const d of ddis) expect(d.e164).toMatch(/^\+?\d+$/);
    },
  },
  {
    endpoint: 'GET /ddis/dictionaries',
    async run(ctx) {
      const ddi = await ctx.client.settings.ddis.get(String(ctx.ids.ddi));
      expectLabels(await ctx.client.settings.ddis.dictionaries(), ['status', 'target_type'], ddi);
    },
  },
  {
    endpoint: 'POST /queues',
    async run(ctx) {
      const q = await ctx.client.settings.queues.create({
        name: 'Billing',
        number: 7100,
        users: [{ id: ctx.admin.user_id, status: true }],
        ring_strategy: 'ringall',
        max_wait_time: 300,
      });
      ctx.ids.queue = q.id;
    },
  },
  {
    endpoint: 'GET /queues',
    async run(ctx) {
      const page = await firstPage(ctx.client.settings.queues.list({ limit: 5000 }));
      expect(page.data.map((q) => q.id)).toContain(idOf(ctx, 'queue'));
    },
  },
  {
    endpoint: 'GET /queues/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.queues.get(idOf(ctx, 'queue'))).name).toBe('Billing');
    },
  },
  {
    endpoint: 'POST /ringgroups',
    async run(ctx) {
      const g = await ctx.client.settings.ringGroups.create({
        name: 'Front desk',
        users: [ctx.admin.user_id],
      });
      ctx.ids.ringGroup = g.id;
    },
  },
  {
    endpoint: 'GET /ringgroups',
    async run(ctx) {
      const page = await firstPage(ctx.client.settings.ringGroups.list({ limit: 5000 }));
      expect(page.data.map((g) => g.id)).toContain(idOf(ctx, 'ringGroup'));
    },
  },
  {
    endpoint: 'PATCH /ringgroups/{id}',
    async run(ctx) {
      expect(
        (await ctx.client.settings.ringGroups.update(idOf(ctx, 'ringGroup'), { ring_time: 25 })).ring_time,
      ).toBe(25);
    },
  },
  {
    endpoint: 'GET /ringgroups/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.ringGroups.get(idOf(ctx, 'ringGroup'))).name).toBe('Front desk');
    },
  },
  {
    endpoint: 'GET /ringgroups/dictionaries',
    async run(ctx) {
      // A seeded group (the one created above was given no strategy): its strategy is labelled; its
      // final_dst_type, 1, is not (the emulator's table is keyed by letters).
      const group = await firstRecord(ctx.client.settings.ringGroups.list());
      expect(group.id).not.toBe(idOf(ctx, 'ringGroup'));
      const dictionaries = await ctx.client.settings.ringGroups.dictionaries();
      expectLabels(dictionaries, ['final_dst_type']);
      expectLabels(dictionaries, ['strategy'], group);
    },
  },
  {
    endpoint: 'DELETE /ringgroups/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.ringGroups.delete(idOf(ctx, 'ringGroup'))).status).toBe(204);
    },
  },
  {
    endpoint: 'GET /pickupgroups',
    async run(ctx) {
      ctx.ids.pickupGroup = (await firstRecord(ctx.client.settings.pickupGroups.list())).id;
    },
  },
  {
    endpoint: 'GET /pickupgroups/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.pickupGroups.get(idOf(ctx, 'pickupGroup'))).id).toBe(
        idOf(ctx, 'pickupGroup'),
      );
    },
  },
  {
    endpoint: 'POST /routingrules',
    async run(ctx) {
      const r = await ctx.client.settings.routingRules.create({
        pos: 1,
        source: ['+442079460000'],
        destination: ['*'],
        time_interval: [],
        action: 'block',
        direction: 'in',
      });
      ctx.ids.routingRule = r.id;
    },
  },
  {
    endpoint: 'GET /routingrules',
    async run(ctx) {
      const page = await firstPage(ctx.client.settings.routingRules.list({ limit: 5000 }));
      expect(page.data.map((r) => r.id)).toContain(idOf(ctx, 'routingRule'));
    },
  },
  {
    endpoint: 'PATCH /routingrules/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.routingRules.update(idOf(ctx, 'routingRule'), { pos: 2 })).pos).toBe(
        2,
      );
    },
  },
  {
    endpoint: 'GET /routingrules/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.routingRules.get(idOf(ctx, 'routingRule'))).action).toBe('block');
    },
  },
  {
    endpoint: 'POST /ivrs',
    async run(ctx) {
      const ivr = await ctx.client.settings.ivrs.create({ name: 'After hours', timeout: 5, repeats: 2 });
      ctx.ids.ivr = ivr.id;
    },
  },
  {
    endpoint: 'GET /ivrs',
    async run(ctx) {
      const page = await firstPage(ctx.client.settings.ivrs.list({ limit: 5000 }));
      expect(page.data.map((i) => i.id)).toContain(idOf(ctx, 'ivr'));
    },
  },
  {
    endpoint: 'GET /ivrs/{id}',
    async run(ctx) {
      expect((await ctx.client.settings.ivrs.get(idOf(ctx, 'ivr'))).name).toBe('After hours');
    },
  },
];
