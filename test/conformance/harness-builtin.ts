import { harnessAccount } from './conformance-fixtures';
// The built-in destination (warehouse tables) for the CRM conformance suite: the connector
// createCrmConnectors builds when no CRM is configured, on a fresh migrated warehouse. It has no
// network, so a lost answer is a database answer lost: the INSERT commits and the connector sees an
// error (a Kysely plugin between the connector and its pool throws once the result is back).
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult } from 'kysely';
import type { RootOperationNode, UnknownRow } from 'kysely';
import { createCrmConnectors } from '../../runtime/crm';
import { parseTestConfig } from '../support/test-config';
import { createMigratedWarehouse } from '../integration/warehouse-db';
import type { DestinationHarness, DestinationFeatures, HeldRecord } from './destination-harness';

export const BUILTIN_FEATURES: DestinationFeatures = {
  createContacts: true,
  owners: false,
  messages: true,
  outcomes: false,
  erasure: true,
  rateLimits: false,
  tokenExpiry: false,
  contactSync: false,
};

const TABLES = {
  callLog: 'builtin_call_logs',
  task: 'builtin_tasks',
  message: 'builtin_messages',
  contact: 'builtin_contacts',
} as const;

/** Loses the answer to the next INSERT into an armed table: the row is written, the caller gets an error. */
class LoseAnswers implements KyselyPlugin {
  private readonly armed = new Set<string>();
  private readonly doomed = new WeakSet<object>();
  arm(table: string): void {
    this.armed.add(table);
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (node.kind === 'InsertQueryNode') {
      const table = node.into?.table.identifier.name;
      if (table !== undefined && this.armed.delete(table)) this.doomed.add(args.queryId);
    }
    return node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.doomed.has(args.queryId))
      throw new Error('Connection terminated unexpectedly (answer lost by the test)');
    return args.result;
  }
}

export async function createBuiltinHarness(): Promise<DestinationHarness> {
  const account = 'acme';
  const warehouse = await createMigratedWarehouse('conformance_builtin');
  const lose = new LoseAnswers();
  const db = warehouse.db.withPlugin(lose);
  // No crm section: the built-in destination, as `npm start` runs it.
  const config = parseTestConfig({
    accounts: [harnessAccount(account)],
    logLevel: 'silent',
  });
  const connector = createCrmConnectors(config, db)(account);
  let nextContact = 1;

  const held = (
    rows: {
      id: number;
      key: string;
      title: string;
      status: string | null;
      contact_id: string | null;
      body: string;
    }[],
  ): HeldRecord[] =>
    rows.map((r) => ({
      crmId: String(r.id),
      key: r.key,
      title: r.title,
      status: r.status,
      contactId: r.contact_id,
      body: r.body,
    }));

  return {
    name: 'Built-in',
    features: BUILTIN_FEATURES,
    connector,
    db: warehouse.db,
    account,
    async seedContact(c) {
      // A contact synced from the platform (the built-in destination's agents work there).
      const id = nextContact++;
      const words = c.name.split(' ');
      const [tel, mobile] = c.phones;
      await warehouse.db
        .insertInto('contacts')
        .values({
          account,
          id,
          raw: JSON.stringify({ id }),
          first_name: words.slice(0, -1).join(' ') || null,
          last_name: words.at(-1) ?? null,
          tel: tel ?? null,
          mobile: mobile ?? null,
          user_id: null,
          ...(c.updatedAt ? { synced_at: new Date(c.updatedAt) } : {}),
        })
        .execute();
      return `contact:${id}`;
    },
    callLogs: async () =>
      held(
        await warehouse.db
          .selectFrom('builtin_call_logs')
          .select(['id', 'key', 'title', 'status', 'contact_id', 'body'])
          .where('account', '=', account)
          .execute(),
      ),
    tasks: async () =>
      held(
        await warehouse.db
          .selectFrom('builtin_tasks')
          .select(['id', 'key', 'subject as title', 'status', 'contact_id', 'body'])
          .where('account', '=', account)
          .execute(),
      ),
    messages: async () =>
      held(
        await warehouse.db
          .selectFrom('builtin_messages')
          .select(['id', 'key', 'title', 'channel as status', 'contact_id', 'body'])
          .where('account', '=', account)
          .execute(),
      ),
    contactsWithPhone: async (e164) =>
      (
        await warehouse.db
          .selectFrom('builtin_contacts')
          .select(['id', 'name'])
          .where('account', '=', account)
          .where('phone', '=', e164)
          .execute()
      ).map((r) => ({
        crmId: `builtin:${r.id}`,
        key: null,
        title: r.name ?? '',
        status: null,
        contactId: null,
        body: '',
      })),
    loseNextAnswer: (kind) => lose.arm(TABLES[kind]),
    dispose: () => warehouse.dispose(),
  };
}
