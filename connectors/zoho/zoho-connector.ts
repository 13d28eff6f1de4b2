// Zoho CRM destination through the official SDK (@zohocrm/nodejs-sdk-8.0): callers matched in
// Contacts, then Leads, by the search API's `phone` parameter; call logs in the Calls module and
// callback tasks in Tasks, each carrying callsync's key in a custom unique field, found again by COQL
// (which reads the records themselves, not the search index that lags a write).
import type {
  CallbackTask,
  CallLog,
  ContactBookOptions,
  CrmConnector,
  CrmContact,
  MessageLog,
} from '../crm/crm-connector';
import type { ZohoConfig } from './config';
import { CrmError } from '../crm/errors';
import { ZohoContactBook } from './contact-book';
import { DESTINATION } from './errors';
import { callFields, keyOfNote, noteFields, personRecordFields, searchDigits, taskFields } from './fields';
import { ZohoOutcomes } from './outcomes';
import { ZohoClient, type ZohoClientOptions } from './zoho-client';

/** Zoho's web UI per data centre (record pages). */
const CRM_WEB: Record<ZohoConfig['dataCentre'], string> = {
  us: 'https://crm.zoho.com',
  eu: 'https://crm.zoho.eu',
  in: 'https://crm.zoho.in',
  au: 'https://crm.zoho.com.au',
  jp: 'https://crm.zoho.jp',
  ca: 'https://crm.zohocloud.ca',
  cn: 'https://crm.zoho.com.cn',
};

/** How long the org's user list is trusted for owner lookups. */
const USERS_TTL_MS = 3_600_000;

/** callsync's keys are `<account>:…` of these characters: safe inside a COQL string literal. */
const KEY_SHAPE = /^[A-Za-z0-9_.:@+-]+$/;

function coqlString(key: string): string {
  if (!KEY_SHAPE.test(key))
    throw new RangeError('an idempotency key with characters COQL would need escaped');
  return `'${key}'`;
}

/** An id as Zoho answers it (a string; a number in older answers), else null. */
function idOf(v: unknown): string | null {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
}

/** The CrmContact of a Contacts or Leads record as the search API answers it. */
function contactOf(row: Record<string, unknown>, kind: CrmContact['kind']): CrmContact {
  const owner = row.Owner as { id?: unknown } | null | undefined;
  const name =
    typeof row.Full_Name === 'string'
      ? row.Full_Name
      : [row.First_Name, row.Last_Name].filter((p) => typeof p === 'string' && p).join(' ') || null;
  return {
    crmId: idOf(row.id) ?? '',
    kind,
    name,
    ownerId: idOf(owner?.id),
    updatedAt: typeof row.Modified_Time === 'string' ? new Date(row.Modified_Time).toISOString() : null,
  };
}

export class ZohoConnector implements CrmConnector {
  readonly name = DESTINATION;
  readonly destinationId: string;
  /** How long Zoho's search takes to see a write (config searchLagSeconds). */
  readonly searchLagMs: number;
  /** The request core (exposed for tests). */
  readonly client: ZohoClient;
  private readonly web: string;
  /** The org's active users, read once in a while (a new rep appears within the hour). */
  private users: { at: number; list: Promise<{ id: string; email: string }[]> } | undefined;
  private outcomeSource: ZohoOutcomes | undefined;

  constructor(
    private readonly config: ZohoConfig,
    opts: ZohoClientOptions,
  ) {
    this.client = new ZohoClient(config, opts);
    this.searchLagMs = config.searchLagSeconds * 1000;
    this.destinationId = `zoho:${config.orgId ?? `${this.client.apiUrl}#${config.clientId}`}`;
    this.web = `${CRM_WEB[config.dataCentre]}/crm${config.orgId ? `/${config.orgId}` : ''}`;
  }

  /**
   * Checks that Calls and Tasks have callsync's key field (an admin creates it; docs/crm.md "Zoho
   * CRM"). Reading the field metadata through the SDK here also fills its cache with the answers of a
   * live token, before the first write needs them.
   */
  async prepare(): Promise<void> {
    const field = this.config.keyField;
    for (const module of ['Calls', 'Tasks']) {
      if (!(await this.client.fieldNames(module)).includes(field)) {
        throw new CrmError({
          destination: DESTINATION,
          code: 'KEY_FIELD_MISSING',
          message: `${module} has no field ${field}: create a single-line field with that API name in ${module} (Setup → Modules and Fields), "Do not allow duplicate values" ticked, or set crm.destination.keyField`,
          retryable: false,
        });
      }
    }
  }

  /** The contact sync's view of the org's Contacts, through this connector's request core. */
  contactBook({ country }: Pick<ContactBookOptions, 'country'>): ZohoContactBook {
    return new ZohoContactBook(this.client, this.config.keyField, country);
  }

  async ownerId(email: string | null): Promise<string | null> {
    if (!email) return null;
    return (await this.userList()).find((u) => u.email.toLowerCase() === email.toLowerCase())?.id ?? null;
  }

  /** The outcomes agents set on callsync's call logs (Call_Result). */
  outcomes(): ZohoOutcomes {
    return (this.outcomeSource ??= new ZohoOutcomes(
      {
        coql: (query) => this.client.coql(query),
        userEmail: async (id) => (await this.userList()).find((u) => u.id === id)?.email ?? null,
      },
      this.config.keyField,
    ));
  }

  private userList(): Promise<{ id: string; email: string }[]> {
    if (!this.users || Date.now() - this.users.at > USERS_TTL_MS) {
      const list = this.client.activeUsers();
      this.users = { at: Date.now(), list };
      list.catch(() => (this.users = undefined));
    }
    return this.users.list;
  }

  async findContactsByPhone(e164: string): Promise<CrmContact[]> {
    const digits = searchDigits(e164);
    // Contacts first, then Leads: a person who is both is matched as the Contact.
    const contacts = await this.client.searchPhone('Contacts', digits);
    const leads = await this.client.searchPhone('Leads', digits);
    return [...contacts.map((r) => contactOf(r, 'contact')), ...leads.map((r) => contactOf(r, 'lead'))];
  }

  async createContact(input: { phone: string; name: string | null }): Promise<CrmContact> {
    const module = this.config.unknownCallersAs;
    const fields = personRecordFields(input);
    const crmId = await this.client.create(module, fields);
    return {
      crmId,
      kind: module === 'Leads' ? 'lead' : 'contact',
      name: input.name,
      ownerId: null,
      updatedAt: new Date().toISOString(),
    };
  }

  contactPageUrl(contact: CrmContact): Promise<string> {
    const tab = contact.kind === 'lead' ? 'Leads' : 'Contacts';
    return Promise.resolve(`${this.web}/tab/${tab}/${encodeURIComponent(contact.crmId)}`);
  }

  newContactPageUrl(): Promise<string> {
    return Promise.resolve(`${this.web}/tab/${this.config.unknownCallersAs}/create`);
  }

  callLogPageUrl(crmId: string): string {
    return `${this.web}/tab/Calls/${encodeURIComponent(crmId)}`;
  }

  findCallLog(key: string): Promise<string | null> {
    return this.findByKey('Calls', key);
  }

  createCallLog(log: CallLog): Promise<string> {
    return this.client.create('Calls', callFields(log, this.config.keyField));
  }

  updateCallLog(crmId: string, log: CallLog): Promise<void> {
    return this.client.update('Calls', crmId, callFields(log, this.config.keyField));
  }

  findTask(key: string): Promise<string | null> {
    return this.findByKey('Tasks', key);
  }

  createTask(task: CallbackTask): Promise<string> {
    return this.client.create('Tasks', taskFields(task, this.config.keyField, this.config.taskPriority));
  }

  updateTask(crmId: string, task: CallbackTask): Promise<void> {
    const fields = taskFields(task, this.config.keyField, this.config.taskPriority);
    return this.client.update('Tasks', crmId, fields);
  }

  /** The note on the log's contact whose content ends with callsync's key line. */
  async findMessageLog(key: string, log: MessageLog): Promise<string | null> {
    const module = log.contact.kind === 'lead' ? 'Leads' : 'Contacts';
    for await (const page of this.client.notesOf(module, log.contact.crmId)) {
      const hit = page.find((n) => keyOfNote(n.Note_Content) === key);
      if (hit) return idOf(hit.id);
    }
    return null;
  }

  createMessageLog(log: MessageLog): Promise<string> {
    return this.client.create('Notes', noteFields(log));
  }

  updateMessageLog(crmId: string, log: MessageLog): Promise<void> {
    // Parent_Id stays: a note does not move to another record.
    const { Parent_Id: _parent, ...fields } = noteFields(log);
    return this.client.update('Notes', crmId, fields);
  }

  deleteMessageLog(crmId: string): Promise<void> {
    return this.client.delete('Notes', crmId);
  }

  deleteCallLog(crmId: string): Promise<void> {
    return this.client.delete('Calls', crmId);
  }

  deleteTask(crmId: string): Promise<void> {
    return this.client.delete('Tasks', crmId);
  }

  deleteContact(crmId: string): Promise<void> {
    return this.client.delete(this.config.unknownCallersAs, crmId);
  }

  /** The oldest record of `module` carrying `key` (the key field is unique, so at most one). */
  private async findByKey(module: 'Calls' | 'Tasks', key: string): Promise<string | null> {
    const field = this.config.keyField;
    const rows = await this.client.coql(
      `select id from ${module} where ${field} = ${coqlString(key)} order by Created_Time asc limit 2`,
    );
    return idOf(rows[0]?.id);
  }
}
