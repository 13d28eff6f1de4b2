import { firstPage, type Step } from './step';

/** Whole-collection deletes, run after everything else (the last one deletes the customer account). */
export const destructiveSteps: Step[] = [
  {
    endpoint: 'DELETE /chatmsgs',
    async run(ctx) {
      expect((await ctx.client.history.chatMessages.deleteAll()).status).toBe(204);
      const left = await firstPage(ctx.client.customer.users.chatMessages(ctx.admin.user_id));
      expect(left.data).toHaveLength(0);
    },
  },
  {
    endpoint: 'DELETE /statements',
    async run(ctx) {
      expect((await ctx.client.history.statements.deleteAll()).status).toBe(204);
    },
  },
  {
    endpoint: 'DELETE /sms',
    async run(ctx) {
      expect((await ctx.client.storage.sms.deleteAll()).status).toBe(202);
      await eventually(async () => (await firstPage(ctx.client.storage.sms.list())).total === 0);
    },
  },
  {
    endpoint: 'DELETE /monitors',
    async run(ctx) {
      expect((await ctx.client.history.monitors.deleteAll()).status).toBe(202);
      await eventually(async () => (await firstPage(ctx.client.history.monitors.list())).total === 0);
    },
  },
  {
    endpoint: 'DELETE /voicemessages',
    async run(ctx) {
      expect((await ctx.client.history.voicemessages.deleteAll()).status).toBe(202);
      await eventually(async () => (await firstPage(ctx.client.history.voicemessages.list())).total === 0);
    },
  },
  {
    endpoint: 'DELETE /cdrs',
    async run(ctx) {
      expect((await ctx.client.history.cdrs.deleteAll()).status).toBe(204);
      expect((await firstPage(ctx.client.history.cdrs.list())).total).toBe(0);
    },
  },
  {
    endpoint: 'DELETE /customers/{id}',
    async run(ctx) {
      const me = await ctx.client.customer.users.get(ctx.admin.user_id);
      const customerId = me.customer_id_id!;
      await expect(ctx.client.customer.customers.delete(customerId + 1)).rejects.toMatchObject({
        status: 403,
      });
      expect((await ctx.client.customer.customers.delete(customerId)).status).toBe(204);
      await expect(ctx.client.customer.users.get(ctx.admin.user_id)).rejects.toMatchObject({ status: 401 });
    },
  },
];

/** Waits for an asynchronous (202) delete to complete. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the asynchronous delete did not complete in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
