// The registry of named API tokens minted through /apitokens (beyond the spec; see routes/api-tokens.ts):
// their rows, and the identity a minted token stands for when a request presents it.
import type { EmulatorClock } from '../../store';
import { MemoryTable } from '../../store/memory-table';

/** The minted tokens of one emulator (dropped with the store on a reseed). */
export class ApiTokens {
  readonly table = new MemoryTable({ name: 'apitokens' });

  constructor(
    private readonly customers: () => readonly { id: number }[],
    private readonly clock: () => EmulatorClock,
  ) {}

  /** The identity a minted token stands for, if it is one and has not expired. */
  identify(secret: string, userId: string | undefined): { user_id: number; customer_id: number } | undefined {
    for (const customer of this.customers()) {
      const { data } = this.table.query(customer.id, {
        page: 1,
        limit: 1,
        filter: [{ property: 'token', operator: 'eq', value: secret }],
      });
      const row = data[0];
      if (row === undefined) continue;
      if (userId !== undefined && userId !== String(row.user_id)) return undefined;
      if (typeof row.expiry === 'string' && row.expiry !== '' && row.expiry <= this.clock().nowString())
        return undefined;
      return { user_id: Number(row.user_id), customer_id: customer.id };
    }
    return undefined;
  }
}
