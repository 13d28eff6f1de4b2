import { expectLabels, firstPage, firstRecord, idOf, type Step } from './step';

// A tiny but real MP3 frame header is enough for an upload body: the platform only checks the type.
const MP3_BASE64 = Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]).toString('base64');

/** Storage module: SMS, faxes, voicemail announcements, canned responses. */
export const storageSteps: Step[] = [
  {
    endpoint: 'POST /sms',
    async run(ctx) {
      const sms = await ctx.client.storage.sms.create({
        to: '+447700900123',
        message: 'Contract test message',
      });
      expect(sms.message).toBe('Contract test message');
      ctx.ids.sms = sms.id;
    },
  },
  {
    endpoint: 'GET /sms',
    async run(ctx) {
      const page = await firstPage(ctx.client.storage.sms.list({ limit: 10 }));
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.total).toBeGreaterThan(0);
    },
  },
  {
    endpoint: 'GET /sms/{id}',
    async run(ctx) {
      const sms = await ctx.client.storage.sms.get(idOf(ctx, 'sms'));
      expect(sms.to).toBe('+447700900123');
    },
  },
  {
    endpoint: 'GET /sms/dictionaries',
    async run(ctx) {
      const sms = await ctx.client.storage.sms.get(idOf(ctx, 'sms'));
      expectLabels(await ctx.client.storage.sms.dictionaries(), ['type'], sms);
    },
  },
  {
    endpoint: 'GET /faxes',
    async run(ctx) {
      const fax = await firstRecord(ctx.client.storage.faxes.list());
      expect(typeof fax.id).toBe('number');
    },
  },
  {
    endpoint: 'POST /vmannouncements',
    async run(ctx) {
      const a = await ctx.client.storage.vmAnnouncements.create({
        extension_id: 101,
        description: 'Closed for lunch',
        data: MP3_BASE64,
      });
      ctx.ids.vmAnnouncement = a.id;
    },
  },
  {
    endpoint: 'GET /vmannouncements',
    async run(ctx) {
      const page = await firstPage(ctx.client.storage.vmAnnouncements.list({ limit: 5000 }));
      expect(page.data.map((a) => a.id)).toContain(idOf(ctx, 'vmAnnouncement'));
    },
  },
  {
    endpoint: 'PATCH /vmannouncements/{id}',
    async run(ctx) {
      const a = await ctx.client.storage.vmAnnouncements.update(idOf(ctx, 'vmAnnouncement'), {
        description: 'Back at two',
      });
      expect(a.description).toBe('Back at two');
    },
  },
  {
    endpoint: 'GET /vmannouncements/{id}',
    async run(ctx) {
      const a = await ctx.client.storage.vmAnnouncements.get(idOf(ctx, 'vmAnnouncement'));
      expect(a.description).toBe('Back at two');
    },
  },
  {
    endpoint: 'DELETE /vmannouncements/{id}',
    async run(ctx) {
      expect((await ctx.client.storage.vmAnnouncements.delete(idOf(ctx, 'vmAnnouncement'))).status).toBe(204);
    },
  },
  {
    endpoint: 'POST /sms/cannedresponses',
    async run(ctx) {
      const r = await ctx.client.storage.cannedResponses.create({ name: 'Busy', text: 'Call you back soon' });
      ctx.ids.canned = r.id;
    },
  },
  {
    endpoint: 'GET /sms/cannedresponses',
    async run(ctx) {
      const page = await firstPage(ctx.client.storage.cannedResponses.list({ limit: 5000 }));
      expect(page.data.map((r) => r.id)).toContain(idOf(ctx, 'canned'));
    },
  },
  {
    endpoint: 'PATCH /sms/cannedresponses/{id}',
    async run(ctx) {
      await ctx.client.storage.cannedResponses.update(idOf(ctx, 'canned'), { text: 'Back in five' });
    },
  },
  {
    endpoint: 'GET /sms/cannedresponses/{id}',
    async run(ctx) {
      const r = await ctx.client.storage.cannedResponses.get(idOf(ctx, 'canned'));
      expect(r.id).toBe(idOf(ctx, 'canned'));
    },
  },
  {
    endpoint: 'DELETE /sms/cannedresponses/{id}',
    async run(ctx) {
      expect((await ctx.client.storage.cannedResponses.delete(idOf(ctx, 'canned'))).status).toBe(204);
    },
  },
];
