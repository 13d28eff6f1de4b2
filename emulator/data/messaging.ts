import type { Row } from '../store/types';
import { formatEpoch } from './calendar';
import type { ContactInfo } from './contacts';
import type { Directory } from './directory';
import type { Rng } from './prng';
import type { IdAllocator } from './profiles';

type Rows = Record<string, Row[]>;

const OUT_TEXTS = [
  'Hi, just confirming your appointment tomorrow at 10am.',
  'Your order has been dispatched. Tracking to follow.',
  'Thanks for your call today, the quote is in your inbox.',
  'Reminder: your invoice is due on Friday.',
  'We tried to call you, when is a good time to talk?',
  'Your engineer is on the way and should arrive within 30 minutes.',
];
const IN_TEXTS = [
  'Thanks, see you then.',
  'Can you call me back after 3pm please?',
  'Received, thank you!',
  'Is it possible to move the appointment to Thursday?',
  'Who is this?',
  'Great, payment sent.',
  'STOP',
];
const OUT_TEXTS_DE = ['Ihre Lieferung kommt morgen zwischen 8 und 12 Uhr.', 'Bitte rufen Sie uns zurück.'];
const IN_TEXTS_DE = ['Danke, passt.', 'Bitte erst ab 14 Uhr liefern.'];

/** SMS conversations both ways between users' numbers and contacts' mobiles, ids ascending with time. */
export function buildSms(
  dir: Directory,
  contacts: readonly ContactInfo[],
  rng: Rng,
  ids: IdAllocator,
  from: number,
  to: number,
): Row[] {
  const german = dir.profile.language.startsWith('de');
  const msgs: { t: number; out: boolean; user: number; c: number; text: string; result: string }[] = [];
  while (msgs.length < dir.profile.sms && contacts.length > 0) {
    const user = rng.int(0, dir.users.length - 1);
    const c = rng.int(0, contacts.length - 1);
    let t = from + rng.next() * (to - from - 86_400);
    let out = rng.chance(0.65);
    const n = rng.int(1, 6);
    for (let k = 0; k < n && msgs.length < dir.profile.sms && t < to; k++) {
      const text = rng.pick(out ? (german ? OUT_TEXTS_DE : OUT_TEXTS) : german ? IN_TEXTS_DE : IN_TEXTS);
      const result = out
        ? rng.weighted([
            ['DELIVERED', 92],
            ['SENT', 5],
            ['FAILED', 3],
          ] as const)
        : 'RECEIVED';
      msgs.push({ t: Math.floor(t), out, user, c, text, result });
      t += rng.int(40, 4 * 3600);
      out = !out;
    }
  }
  msgs.sort((a, b) => a.t - b.t);
  return msgs.map((m) => {
    const u = dir.users[m.user];
    const c = contacts[m.c];
    const userNumber = dir.mainNumber;
    const userSide = { number: userNumber, id: String(u?.id ?? ''), name: u?.name ?? '' };
    const contactSide = { number: c?.mobile ?? '', id: c?.ref ?? '', name: c?.name ?? '' };
    const [a, b] = m.out ? [userSide, contactSide] : [contactSide, userSide];
    return {
      id: ids.take('sms'),
      created_at: formatEpoch(m.t),
      from: a.number,
      from_id: a.id,
      from_name: a.name,
      message: m.text,
      result: m.result,
      to: b.number,
      to_id: b.id,
      to_name: b.name,
      type: m.out ? 'O' : 'I',
      user_id: u?.id ?? null,
    };
  });
}

/** Faxes sent and received, with page counts and charges. */
export function buildFaxes(
  dir: Directory,
  contacts: readonly ContactInfo[],
  rng: Rng,
  ids: IdAllocator,
  from: number,
  to: number,
): Row[] {
  const times = Array.from({ length: dir.profile.faxes }, () =>
    Math.floor(from + rng.next() * (to - from)),
  ).sort((a, b) => a - b);
  return times.map((t) => {
    const outbound = rng.chance(0.55);
    const c = contacts.length > 0 ? rng.pick(contacts) : undefined;
    const pages = rng.int(1, 12);
    const failed = rng.chance(0.06);
    return {
      id: ids.take('faxes'),
      charge: outbound && !failed ? Math.round(pages * 0.03 * 10_000) / 10_000 : 0,
      created_at: formatEpoch(t),
      filename: `fax-${formatEpoch(t).replace(/\D/g, '')}.pdf`,
      from: outbound ? dir.mainNumber : (c?.tel ?? ''),
      pages,
      status: failed ? 3 : outbound ? 1 : 2,
      to: outbound ? (c?.tel ?? '') : dir.mainNumber,
      type: outbound ? 1 : 2,
    };
  });
}

const CHAT_LINES: readonly (readonly ['visitor' | 'operator', string])[] = [
  ['visitor', 'Hi, do you offer number porting?'],
  ['operator', 'Hello! Yes, porting is free and usually takes 5 to 10 working days.'],
  ['visitor', 'Great. Can I keep my current numbers during the switch?'],
  ['operator', 'Yes, they keep working until the port completes.'],
  ['visitor', 'Thanks, that is all I needed.'],
  ['operator', 'You are welcome, have a nice day!'],
];
const CITIES: readonly (readonly [string, string, string])[] = [
  ['London', 'GB', '51.5074,-0.1278'],
  ['Manchester', 'GB', '53.4808,-2.2426'],
  ['New York', 'US', '40.7128,-74.0060'],
  ['Berlin', 'DE', '52.5200,13.4050'],
  ['Sydney', 'AU', '-33.8688,151.2093'],
];
const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
];

/** Website chats with their messages (chat messages carry the operator's user id). */
export function buildChats(dir: Directory, rng: Rng, ids: IdAllocator, from: number, to: number): Rows {
  const chats: Row[] = [];
  const msgs: Row[] = [];
  const times = Array.from({ length: dir.profile.chats }, () =>
    Math.floor(from + rng.next() * (to - from)),
  ).sort((a, b) => a - b);
  for (const t of times) {
    const id = ids.take('chats');
    const operator = rng.pick(dir.users);
    const [city, country, geo] = rng.pick(CITIES);
    const n = rng.int(2, CHAT_LINES.length);
    let at = t;
    for (const [sender, message] of CHAT_LINES.slice(0, n)) {
      msgs.push({
        id: ids.take('chatmsgs'),
        chat_id: id,
        created_at: formatEpoch(at),
        message,
        sender,
        user_id: operator.id,
      });
      at += rng.int(8, 90);
    }
    const visitorId = rng.hex(16);
    chats.push({
      id,
      created_at: formatEpoch(t),
      customer_id: dir.profile.id,
      duration: at - t,
      operator_id: operator.id,
      operator_ua: operator.ua,
      state: 2,
      visitor_city: city,
      visitor_country: country,
      visitor_email: rng.chance(0.4) ? `visitor.${visitorId.slice(0, 6)}@mail.example` : '',
      visitor_geo: geo,
      visitor_id: visitorId,
      visitor_ip: `${rng.int(2, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
      visitor_name: rng.chance(0.5) ? 'Guest' : `Visitor ${rng.int(100, 999)}`,
      visitor_referer: `https://www.${dir.profile.domain}/pricing`,
      visitor_ua: rng.pick(BROWSERS),
      website_id: null,
    });
  }
  return { chats, chatmsgs: msgs };
}
