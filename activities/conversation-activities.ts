// SMS and voice messages on the CRM contact. Two paths see each message: a received SMS at once from
// its webhook (the message is read back from the platform, stored in the warehouse's sms table and
// logged), and the scheduled pass over the warehouse's sms and voicemessages tables (both directions,
// whatever the webhooks lost). Both key the CRM object `<account>:sms:<id>` in the mapping table, so
// a message is logged once whichever path, retry or redelivery comes first.
import { ApplicationFailure } from '@temporalio/activity';
import type { CountryCode } from 'libphonenumber-js';
import { destinationIdOf, type CrmConnector, type MessageLog } from '../connectors/crm/crm-connector';
import { chooseContact } from '../connectors/crm/match';
import { toE164 } from '../lib/phone';
import { upsertMessageLog } from '../connectors/crm/upsert';
import { filter, type Sms } from '../connectors/platform';
import {
  unloggedSms,
  unloggedVoicemessages,
  upsertPage,
  type SmsRow,
  type VoicemessageRow,
} from '../connectors/postgres';
import type { ConversationsPassResult, SmsReceivedInput, SmsReceivedResult } from '../contracts';
import { platformTimeOrUndefined } from '../sync/time';
import { contactLookupOf } from './contact-lookup';
import { conversationsOf, crmRulesOf } from '../config/account-settings';
import type { ActivityDeps } from './deps';

/** A platform time (`YYYY-MM-DD HH:MM:SS`, UTC) as a Date; null when absent or unreadable. */
function platformDate(value: string | null | undefined): Date | null {
  const ms = value ? platformTimeOrUndefined(value) : undefined;
  return ms === undefined ? null : new Date(ms);
}

/** A webhook's event_time and the SMS's created_at may differ by this much and still be one message. */
const SAME_MESSAGE_WINDOW_MS = 5 * 60_000;
/** Messages one pass logs at most (the next pass goes on). */
const PASS_LIMIT = 500;

/** What a message needs for its CRM log, whichever table or event it came from. */
export interface MessageFacts {
  account: string;
  channel: 'sms' | 'voicemail';
  id: number;
  direction: 'inbound' | 'outbound';
  at: Date;
  from: string | null;
  to: string | null;
  userId: number | null;
  body: string;
  /** Voice messages: seconds. */
  durationS?: number | null;
}

/** The facts of a warehouse sms row (`type` O = sent by a user, anything else received). */
export function smsFacts(
  account: string,
  row: Pick<SmsRow, 'id' | 'type' | 'created_at' | 'from' | 'to' | 'user_id' | 'message'>,
): MessageFacts {
  return {
    account,
    channel: 'sms',
    id: Number(row.id),
    direction: String(row.type ?? '').toUpperCase() === 'O' ? 'outbound' : 'inbound',
    at: row.created_at ?? new Date(),
    from: row.from,
    to: row.to,
    userId: row.user_id === null ? null : Number(row.user_id),
    body: row.message ?? '',
  };
}

/** A browsable link for an archived object's URI (gs:// objects open in the Cloud console). */
export function audioLink(uri: string | null): string | null {
  if (!uri) return null;
  const gs = /^gs:\/\/([^/]+)\/(.+)$/.exec(uri);
  return gs ? `https://storage.cloud.google.com/${gs[1]}/${gs[2]}` : uri;
}

/** The facts of a warehouse voicemessages row: its audio link and transcript make the body. */
export function voicemailFacts(account: string, row: VoicemessageRow): MessageFacts {
  const link = audioLink(row.audio_uri);
  const lines = [
    link ? `Recording: ${link}` : 'Recording: not archived yet',
    row.transcript ? `Transcript: ${row.transcript}` : 'Transcript: none yet',
  ];
  const origtime = platformDate(row.origtime);
  return {
    account,
    channel: 'voicemail',
    id: Number(row.id),
    direction: 'inbound',
    at: origtime ?? row.synced_at,
    from: row.callerid,
    to: row.dialled,
    userId: row.extension_id === null ? null : Number(row.extension_id),
    body: lines.join('\n'),
    durationS: row.duration === null ? null : Number(row.duration),
  };
}

export function createConversationActivities(deps: ActivityDeps) {
  const country = deps.config.crm.defaultCountry as CountryCode;
  const emails = new Map<string, string | null>();

  const userEmail = async (account: string, userId: number | null): Promise<string | null> => {
    if (!userId) return null;
    const key = `${account}:${userId}`;
    if (!emails.has(key)) {
      const user = await deps
        .platform(account)
        .customer.users.get(userId)
        .catch(() => null);
      emails.set(key, user?.email ?? null);
    }
    return emails.get(key) ?? null;
  };

  /** Logs one message on its counterpart's contact; null when the CRM has no contact for them. */
  const logMessage = async (
    crm: CrmConnector,
    m: MessageFacts,
    mayExist: boolean,
  ): Promise<string | null> => {
    const counterpart = toE164(m.direction === 'inbound' ? m.from : m.to, country);
    if (!counterpart) return null;
    const { contacts } = await contactLookupOf(deps).candidates(m.account, crm, counterpart);
    const contact = chooseContact(contacts, crmRulesOf(deps.config, m.account).matchRule, null);
    if (!contact) return null;
    const word = m.channel === 'sms' ? 'SMS' : 'Voicemail';
    const length = m.durationS ? ` (${m.durationS} s)` : '';
    const log: MessageLog = {
      key: `${m.account}:${m.channel}:${m.id}`,
      channel: m.channel,
      direction: m.direction,
      at: m.at.toISOString(),
      fromNumber: m.from,
      toNumber: m.to,
      title: `${word} ${m.direction === 'inbound' ? `from ${m.from ?? 'unknown'}` : `to ${m.to ?? 'unknown'}`}${length}`,
      body: m.body,
      userEmail: await userEmail(m.account, m.userId),
      contact,
    };
    const result = await upsertMessageLog(deps.warehouse.db, crm, log, { mayExist });
    return result?.crmId ?? null;
  };

  return {
    /**
     * A received SMS, at once: read back from the platform (the event carries no SMS id), stored in
     * the warehouse's sms table, and logged on the sender's contact.
     */
    async captureReceivedSms(input: SmsReceivedInput): Promise<SmsReceivedResult> {
      const { account, event } = input;
      const sent = platformDate(event.event_time);
      const page = await deps
        .platform(account)
        .storage.sms.list({
          filter: filter<Sms>().eq('from', event.from_no ?? ''),
          sort: 'created_at',
          dir: 'desc',
          limit: 50,
        })
        .readPage(1);
      const index = page.data.findIndex((s) => {
        if ((s.message ?? '') !== (event.text ?? '') || (event.to_no && s.to && s.to !== event.to_no))
          return false;
        const at = platformDate(s.created_at);
        return !sent || !at || Math.abs(at.getTime() - sent.getTime()) <= SAME_MESSAGE_WINDOW_MS;
      });
      const sms = page.data[index];
      if (!sms) {
        // The platform lists a message a moment after it announced it; the retry policy waits.
        throw ApplicationFailure.retryable(
          `the SMS of event ${event.id} is not listed by GET /sms yet`,
          'SmsNotListedYet',
        );
      }
      await upsertPage(deps.warehouse.pool, {
        stream: 'sms',
        account,
        records: [{ record: sms, raw: page.raw[index] }],
      });
      if (!conversationsOf(deps.config, account).sms) return { smsId: sms.id, crmId: null };
      const crmId = await logMessage(
        deps.crm(account),
        smsFacts(account, {
          id: sms.id,
          type: sms.type ?? null,
          created_at: platformDate(sms.created_at) ?? new Date(),
          from: sms.from ?? null,
          to: sms.to ?? null,
          user_id: sms.user_id ?? null,
          message: sms.message ?? null,
        }),
        true,
      );
      return { smsId: sms.id, crmId };
    },

    /** The scheduled pass: SMS and voice messages of the lookback that are not on their contact yet. */
    async logRecentMessages(input: { account: string }): Promise<ConversationsPassResult> {
      const { account } = input;
      const crm = deps.crm(account);
      const cfg = conversationsOf(deps.config, account);
      const q = {
        account,
        destination: destinationIdOf(crm),
        since: new Date(Date.now() - cfg.lookback),
        limit: PASS_LIMIT,
      };
      const result: ConversationsPassResult = { sms: 0, voicemail: 0, noContact: 0 };
      if (!crm.createMessageLog) return result;
      const facts: MessageFacts[] = [];
      if (cfg.sms)
        for (const row of await unloggedSms(deps.warehouse.db, q)) facts.push(smsFacts(account, row));
      if (cfg.voicemail) {
        for (const row of await unloggedVoicemessages(deps.warehouse.db, q))
          facts.push(voicemailFacts(account, row));
      }
      for (const m of facts) {
        const crmId = await logMessage(crm, m, true);
        if (crmId === null) result.noContact++;
        else result[m.channel]++;
      }
      return result;
    },
  };
}
