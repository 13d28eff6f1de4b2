import { chatMessageSchema, contactSchema, liveCallSchema } from '../../../connectors/platform/schemas';
import { firstPage, idOf, parsedPage, readAll, type Step } from './step';

/** Customer module: users and their nested collections, groups, policies, queue groups, /me. */
export const customerSteps: Step[] = [
  {
    endpoint: 'GET /users',
    async run(ctx) {
      const page = await firstPage(ctx.client.customer.users.list({ limit: 5000 }));
      expect(page.data.length).toBeGreaterThanOrEqual(10);
      const admin = page.data.find((u) => u.id === ctx.admin.user_id);
      expect(admin?.email).toBe(ctx.admin.email);
      const victim = [...page.data]
        .reverse()
        .find((u) => u.id !== ctx.admin.user_id && u.two_factor_auth === 'D');
      ctx.ids.victimUser = victim!.id;
    },
  },
  {
    endpoint: 'GET /users/{id}',
    async run(ctx) {
      const user = await ctx.client.customer.users.get(ctx.admin.user_id);
      expect(user.email).toBe(ctx.admin.email);
    },
  },
  {
    endpoint: 'PATCH /users',
    async run(ctx) {
      await ctx.client.customer.users.bulkUpdate([{ id: ctx.admin.user_id, location_id: 3, groups: [] }]);
      const user = await ctx.client.customer.users.get(ctx.admin.user_id);
      expect(String(user.location_id)).toBe('3');
    },
  },
  {
    endpoint: 'GET /me',
    async run(ctx) {
      const me = await ctx.client.customer.me();
      expect(String(me.id)).toBe(String(ctx.admin.user_id));
    },
  },
  {
    endpoint: 'GET /users/{id}/contacts',
    async run(ctx) {
      const page = await firstPage(ctx.client.customer.users.contacts(ctx.admin.user_id));
      for (const c of parsedPage(contactSchema, page)) expect(c.user_id).toBe(ctx.admin.user_id);
    },
  },
  {
    endpoint: 'GET /users/{id}/cdrs',
    async run(ctx) {
      const page = await firstPage(ctx.client.customer.users.cdrs(ctx.admin.user_id, { limit: 50 }));
      expect(page.data.every((c) => c.user_id === ctx.admin.user_id)).toBe(true);
    },
  },
  {
    endpoint: 'GET /users/{id}/cdrs.csv',
    async run(ctx) {
      const file = await ctx.client.customer.users.cdrsCsv(ctx.admin.user_id);
      expect(file.contentType).toMatch(/^text\/csv/);
      const text = (await readAll(file.body)).toString('utf8');
      expect(text.split(/\r?\n/)[0]).toMatch(/calldate/);
    },
  },
  {
    endpoint: 'GET /users/{id}/chatmsgs',
    async run(ctx) {
      const page = await firstPage(ctx.client.customer.users.chatMessages(ctx.admin.user_id));
      for (const m of parsedPage(chatMessageSchema, page)) expect(m.user_id).toBe(ctx.admin.user_id);
    },
  },
  {
    endpoint: 'GET /users/{id}/calls',
    async run(ctx) {
      const page = await firstPage(ctx.client.customer.users.calls(ctx.admin.user_id));
      // The user's live calls: placed by them or to them.
      for (const c of parsedPage(liveCallSchema, page))
        expect([c.src_id, c.dst_id]).toContain(String(ctx.admin.user_id));
    },
  },
  {
    endpoint: 'GET /users/{id}/audio',
    async run(ctx) {
      const file = await ctx.client.customer.users.audio(ctx.admin.user_id);
      expect(file.contentType).toMatch(/^audio\//);
      expect((await readAll(file.body)).length).toBeGreaterThan(100);
    },
  },
  {
    endpoint: 'DELETE /users/{id}/audio',
    async run(ctx) {
      expect((await ctx.client.customer.users.resetAudio(ctx.admin.user_id)).status).toBe(204);
    },
  },
  {
    endpoint: 'GET /users/{id}/smsthreads/{from}/{to}',
    async run(ctx) {
      const sms = await ctx.client.storage.sms.get(idOf(ctx, 'sms'));
      const page = await firstPage(
        ctx.client.customer.users.smsThreads(ctx.admin.user_id, sms.from!, sms.to!),
      );
      expect(page.data.map((s) => s.id)).toContain(sms.id);
    },
  },
  {
    endpoint: 'GET /users/{id}/sms/threads/{from}/{to}',
    async run(ctx) {
      const sms = await ctx.client.storage.sms.get(idOf(ctx, 'sms'));
      const page = await firstPage(
        ctx.client.customer.users.smsThreadsNested(ctx.admin.user_id, sms.from!, sms.to!),
      );
      expect(page.data.map((s) => s.id)).toContain(sms.id);
    },
  },
  {
    endpoint: 'DELETE /users/{id}',
    async run(ctx) {
      expect((await ctx.client.customer.users.delete(idOf(ctx, 'victimUser'))).status).toBe(204);
      await expect(ctx.client.customer.users.get(idOf(ctx, 'victimUser'))).rejects.toMatchObject({
        status: 404,
      });
    },
  },
  ...groupSteps('queueGroups', '/queuegroups', { name: 'Support queues' }, { name: 'Sales queues' }),
  ...groupSteps(
    'userGroups',
    '/usergroups',
    { name: 'Night shift', color: '#112233' },
    { name: 'Day shift' },
  ),
  ...groupSteps(
    'userGroupPolicies',
    '/usergrouppolicies',
    { name: 'Recording policy', color: '#445566' },
    { name: 'No recording' },
  ),
];

type GroupKind = 'queueGroups' | 'userGroups' | 'userGroupPolicies';
type GroupPath = '/queuegroups' | '/usergroups' | '/usergrouppolicies';

/** The five CRUD endpoints of a named group resource. */
function groupSteps(
  kind: GroupKind,
  path: GroupPath,
  create: { name: string; color?: string },
  patch: { name: string },
): Step[] {
  const key = `group:${kind}`;
  return [
    {
      endpoint: `POST ${path}`,
      async run(ctx) {
        const g = await ctx.client.customer[kind].create(create);
        expect(g.name).toBe(create.name);
        ctx.ids[key] = g.id;
      },
    },
    {
      endpoint: `GET ${path}`,
      async run(ctx) {
        const page = await firstPage(ctx.client.customer[kind].list({ limit: 5000 }));
        expect(page.data.map((g) => g.id)).toContain(idOf(ctx, key));
      },
    },
    {
      endpoint: `PATCH ${path}/{id}`,
      async run(ctx) {
        const g = await ctx.client.customer[kind].update(idOf(ctx, key), patch);
        expect(g.name).toBe(patch.name);
      },
    },
    {
      endpoint: `GET ${path}/{id}`,
      async run(ctx) {
        expect((await ctx.client.customer[kind].get(idOf(ctx, key))).name).toBe(patch.name);
      },
    },
    {
      endpoint: `DELETE ${path}/{id}`,
      async run(ctx) {
        expect((await ctx.client.customer[kind].delete(idOf(ctx, key))).status).toBe(204);
      },
    },
  ] as Step[];
}
