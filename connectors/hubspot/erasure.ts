// Erasure on HubSpot: archives (HubSpot's delete) what callsync created; an object already gone
// counts as deleted.
import type { Client } from '@hubspot/api-client';
import type { MessageLog } from '../crm/crm-connector';
import { CrmError } from '../crm/errors';
import type { MessageObjectType } from './messages';

export interface ErasureContext {
  client: Client;
  call<T>(send: () => Promise<T>): Promise<T>;
  /** Object types prepare() found usable for messages. */
  messageTypes: ReadonlySet<MessageObjectType>;
}

export class HubSpotErasure {
  constructor(private readonly ctx: ErasureContext) {}

  async callLog(crmId: string): Promise<void> {
    await this.archive(() => this.ctx.client.crm.objects.calls.basicApi.archive(crmId));
  }

  async contact(crmId: string): Promise<void> {
    await this.archive(() => this.ctx.client.crm.contacts.basicApi.archive(crmId));
  }

  async task(crmId: string): Promise<void> {
    await this.archive(() => this.ctx.client.crm.objects.tasks.basicApi.archive(crmId));
  }

  /**
   * An SMS or voice message log, from the object type it went to (an SMS to communications where
   * the portal has them, else a note; a portal that gained or lost communications since is looked
   * up in the other type too).
   */
  async messageLog(crmId: string, channel: MessageLog['channel']): Promise<void> {
    const { messageTypes } = this.ctx;
    const types: MessageObjectType[] =
      channel === 'sms' && messageTypes.has('communications')
        ? ['communications', 'notes']
        : channel === 'sms'
          ? ['notes', 'communications']
          : ['notes'];
    for (const type of types.filter((t) => messageTypes.has(t))) {
      if (await this.archive(() => this.ctx.client.crm.objects.basicApi.archive(type, crmId))) return;
    }
  }

  /** Archives an object; false when it was not there (gone already counts as deleted). */
  private async archive(send: () => Promise<void>): Promise<boolean> {
    try {
      await this.ctx.call(send);
      return true;
    } catch (err) {
      if (err instanceof CrmError && err.status === 404) return false;
      throw err;
    }
  }
}
