import { firstPage, idOf, type Step } from './step';

/** Call Me Back module: settings, websites, buttons, visitors and their CDRs. */
export const callMeBackSteps: Step[] = [
  {
    endpoint: 'POST /callmeback/settings',
    async run(ctx) {
      const s = await ctx.client.callMeBack.settings.create({
        name: 'Website widget',
        position: '1',
        floating_icon: true,
        culture: 'en_GB',
        allowed_countries: ['GB', 'IE'],
        show_to_allowed_countries_only: true,
        welcome_screen_msg: 'We call you back within a minute',
        privacy_policy_url: 'https://acme.example/privacy',
        max_call_rate: 0.1,
      });
      expect(s.name).toBe('Website widget');
      ctx.ids.cmbSetting = s.id;
    },
  },
  {
    endpoint: 'GET /callmeback/settings',
    async run(ctx) {
      const page = await firstPage(ctx.client.callMeBack.settings.list({ limit: 5000 }));
      expect(page.data.map((s) => s.id)).toContain(idOf(ctx, 'cmbSetting'));
    },
  },
  {
    endpoint: 'PATCH /callmeback/settings/{id}',
    async run(ctx) {
      const s = await ctx.client.callMeBack.settings.update(idOf(ctx, 'cmbSetting'), { title: 'Call me' });
      expect(s.title).toBe('Call me');
    },
  },
  {
    endpoint: 'GET /callmeback/settings/{id}',
    async run(ctx) {
      expect((await ctx.client.callMeBack.settings.get(idOf(ctx, 'cmbSetting'))).title).toBe('Call me');
    },
  },
  {
    endpoint: 'DELETE /callmeback/settings/{id}',
    async run(ctx) {
      expect((await ctx.client.callMeBack.settings.delete(idOf(ctx, 'cmbSetting'))).status).toBe(204);
    },
  },
  {
    endpoint: 'GET /callmeback/websites',
    async run(ctx) {
      expect((await firstPage(ctx.client.callMeBack.websites.list())).data.length).toBeGreaterThan(0);
    },
  },
  {
    endpoint: 'GET /callmeback/cdrs',
    async run(ctx) {
      expect((await firstPage(ctx.client.callMeBack.cdrs.list())).data.length).toBeGreaterThan(0);
    },
  },
  {
    endpoint: 'GET /callmeback/visitors',
    async run(ctx) {
      expect((await firstPage(ctx.client.callMeBack.visitors.list())).data.length).toBeGreaterThan(0);
    },
  },
  {
    endpoint: 'POST /callmeback/buttons',
    async run(ctx) {
      const b = await ctx.client.callMeBack.buttons.create({ name: 'Orange button' });
      ctx.ids.cmbButton = b.id;
    },
  },
  {
    endpoint: 'PATCH /callmeback/buttons/{id}',
    async run(ctx) {
      const b = await ctx.client.callMeBack.buttons.update(idOf(ctx, 'cmbButton'), { name: 'Blue button' });
      expect(b.name).toBe('Blue button');
    },
  },
  {
    endpoint: 'GET /callmeback/buttons/{id}',
    async run(ctx) {
      expect((await ctx.client.callMeBack.buttons.get(idOf(ctx, 'cmbButton'))).name).toBe('Blue button');
    },
  },
  {
    endpoint: 'DELETE /callmeback/buttons/{id}',
    async run(ctx) {
      expect((await ctx.client.callMeBack.buttons.delete(idOf(ctx, 'cmbButton'))).status).toBe(204);
    },
  },
];
