// GET /conversations, beyond the spec: the CTI connector's inbox lists the account's SMS and chat
// threads, one per counterpart (an SMS number, a chat visitor), newest first, with page and limit
// like every collection. The official CLI reads the same rows as `id`, `created_at`, `channel`, `src`,
// `dst`, `duration` and `type` and filters on them (VoIPstudio/cli-client src/entities.js, entity
// "conversation"): rows carry both namings. `src`, `dst` and `type` (`I` inbound, `O` outbound) are those
// of the thread's first message, `created_at` its time, `duration` the seconds from the first message to
// the last. The emulator derives them from its SMS and chat rows on each request.
import type { Row } from '../../store';
import { allRows, derivedCollection } from '../derived-collection';
import { parseRouteSpec } from '../paths';
import { fieldText } from '../records';
import type { AuthedCall, RouteDef } from '../route-def';

/** One message of a thread, reduced to what a conversation row shows. */
interface Message {
  channel: 'sms' | 'chat';
  counterpart: string;
  name: string;
  userId: unknown;
  text: string;
  at: string;
  /** Sender and recipient (numbers for SMS; the visitor and the operator for chats). */
  src: string;
  dst: string;
  /** `I` inbound, `O` outbound. */
  type: string;
}

/** The counterpart of an SMS is the far end: the recipient of an outbound one, the sender of an inbound. */
function smsMessage(sms: Row): Message {
  const out = sms.type === 'O';
  return {
    channel: 'sms',
    counterpart: fieldText(sms, out ? 'to' : 'from'),
    name: fieldText(sms, out ? 'to_name' : 'from_name'),
    userId: sms.user_id ?? null,
    text: fieldText(sms, 'message'),
    at: fieldText(sms, 'created_at'),
    src: fieldText(sms, 'from'),
    dst: fieldText(sms, 'to'),
    type: out ? 'O' : 'I',
  };
}

/** Chat messages become thread messages of their chat's visitor. */
function chatMessages(chats: readonly Row[], msgs: readonly Row[]): Message[] {
  const byId = new Map(chats.map((c) => [String(c.id), c]));
  return msgs.flatMap((m) => {
    const chat = byId.get(fieldText(m, 'chat_id'));
    if (chat === undefined) return [];
    return [
      {
        channel: 'chat' as const,
        counterpart: fieldText(chat, 'visitor_id'),
        name: fieldText(chat, 'visitor_name'),
        userId: chat.operator_id ?? null,
        text: fieldText(m, 'message'),
        at: fieldText(m, 'created_at'),
        src: fieldText(chat, 'visitor_id'),
        dst: fieldText(chat, 'operator_id'),
        type: 'I',
      },
    ];
  });
}

/** One row per (channel, counterpart): message count, first and last message. */
export function conversationRows(messages: readonly Message[]): Row[] {
  const threads = new Map<string, Row>();
  for (const m of messages) {
    if (m.counterpart === '') continue;
    const id = `${m.channel}-${m.counterpart}`;
    const t = threads.get(id);
    if (t === undefined) {
      threads.set(id, {
        id,
        channel: m.channel,
        counterpart: m.counterpart,
        counterpart_name: m.name,
        user_id: m.userId,
        messages: 1,
        first_message_at: m.at,
        last_message_at: m.at,
        last_message: m.text,
        created_at: m.at,
        src: m.src,
        dst: m.dst,
        duration: 0,
        type: m.type,
      });
      continue;
    }
    const later = m.at >= String(t.last_message_at);
    const earlier = m.at < String(t.first_message_at);
    const next: Row = {
      ...t,
      messages: Number(t.messages) + 1,
      ...(earlier ? { first_message_at: m.at, created_at: m.at, src: m.src, dst: m.dst, type: m.type } : {}),
      ...(later ? { last_message_at: m.at, last_message: m.text, user_id: m.userId } : {}),
      ...(later && m.name !== '' ? { counterpart_name: m.name } : {}),
    };
    threads.set(id, { ...next, duration: secondsBetween(next.first_message_at, next.last_message_at) });
  }
  return [...threads.values()];
}

/** Whole seconds from one `YYYY-MM-DD HH:MM:SS` time to a later one. */
function secondsBetween(from: unknown, to: unknown): number {
  const ms = (t: unknown): number => Date.parse(`${String(t).replace(' ', 'T')}Z`);
  const s = Math.round((ms(to) - ms(from)) / 1000);
  return Number.isFinite(s) && s > 0 ? s : 0;
}

function listConversations(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const customer = call.identity.customer_id;
  const sms = allRows(call.ctx.table('sms'), customer).map(smsMessage);
  const chats = chatMessages(
    allRows(call.ctx.table('chats'), customer),
    allRows(call.ctx.table('chatmsgs'), customer),
  );
  return derivedCollection(
    'conversations',
    customer,
    conversationRows([...sms, ...chats]),
    call.query,
    call.ctx.api,
    {
      property: 'last_message_at',
      desc: true,
    },
  );
}

/** GET /conversations. */
export function conversationRoutes(): RouteDef[] {
  return [{ ...parseRouteSpec('GET /conversations'), auth: 'required', handle: listConversations }];
}
