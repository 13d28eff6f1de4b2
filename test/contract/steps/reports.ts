import { expectLabels, firstPage, idOf, type Step } from './step';

/** Reports module: report schedules. */
export const reportSteps: Step[] = [
  {
    endpoint: 'POST /reportschedules',
    async run(ctx) {
      const s = await ctx.client.reports.schedules.create({
        report_id: 3,
        name: 'Weekly missed calls',
        description: 'Missed calls per queue, every Monday',
        emails: ['manager@acme.example'],
        format: 'csv',
        culture: 'en_GB',
        start_at: '2026-12-01',
        status: 'active',
        frequency: { type: 'weekly', time_of_day: ['08:00'], day_of_week: [1], day_of_month: [] },
        timezone: 'Europe/London',
      });
      expect(s.name).toBe('Weekly missed calls');
      expect(s.timezone).toBe('Europe/London');
      ctx.ids.reportSchedule = s.id;
    },
  },
  {
    endpoint: 'GET /reportschedules',
    async run(ctx) {
      const page = await firstPage(ctx.client.reports.schedules.list({ limit: 5000 }));
      expect(page.data.map((s) => s.id)).toContain(idOf(ctx, 'reportSchedule'));
    },
  },
  {
    endpoint: 'PATCH /reportschedules/{id}',
    async run(ctx) {
      const s = await ctx.client.reports.schedules.update(idOf(ctx, 'reportSchedule'), {
        name: 'Monday missed calls',
      });
      expect(s.name).toBe('Monday missed calls');
    },
  },
  {
    endpoint: 'GET /reportschedules/{id}',
    async run(ctx) {
      expect((await ctx.client.reports.schedules.get(idOf(ctx, 'reportSchedule'))).name).toBe(
        'Monday missed calls',
      );
    },
  },
  {
    endpoint: 'GET /reportschedules/dictionaries',
    async run(ctx) {
      // Tables only: a schedule carries format, culture and status as the spec's strings ('csv', 'en_GB',
      // 'active'), which the emulator's tables (keyed 0, 1, 2…) do not key.
      expectLabels(await ctx.client.reports.schedules.dictionaries(), [
        'format',
        'culture',
        'frequency',
        'status',
      ]);
    },
  },
  {
    endpoint: 'DELETE /reportschedules/{id}',
    async run(ctx) {
      expect((await ctx.client.reports.schedules.delete(idOf(ctx, 'reportSchedule'))).status).toBe(204);
      await expect(ctx.client.reports.schedules.get(idOf(ctx, 'reportSchedule'))).rejects.toMatchObject({
        status: 404,
      });
    },
  },
];
