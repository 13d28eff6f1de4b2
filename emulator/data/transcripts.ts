import type { Rng } from './prng';

/** What the platform's AI adds to a recording; pooled and shared between monitors to keep memory flat. */
export interface TranscriptEntry {
  transcript: string;
  transcript_speakers: string;
  summary: string;
  sentiment: 'positive' | 'neutral' | 'negative';
  cx_score: number;
  metadata: Readonly<Record<string, unknown>>;
}

type Line = readonly ['agent' | 'caller', string];

interface Scenario {
  topic: string;
  sentiment: TranscriptEntry['sentiment'];
  lines: readonly Line[];
  summary: string;
}

// {agent} {company} {ref} {day} {amount} are filled per entry.
const EN: readonly Scenario[] = [
  {
    topic: 'billing',
    sentiment: 'neutral',
    lines: [
      ['agent', 'Good {part}, {company}, {agent} speaking. How can I help?'],
      ['caller', 'Hi, I have a question about my last invoice, reference {ref}.'],
      ['agent', 'Of course. I can see it here, the total is {amount}. What looks wrong?'],
      ['caller', 'There is a charge for international minutes I did not expect.'],
      ['agent', 'Those are calls to mobile numbers abroad. I can send you the itemised list by e-mail.'],
      ['caller', 'That would help, thank you.'],
      ['agent', 'Done, you should have it in a few minutes. Anything else?'],
      ['caller', 'No, that is all. Thanks.'],
    ],
    summary:
      'Caller queried international charges on invoice {ref}; {agent} e-mailed the itemised call list.',
  },
  {
    topic: 'sales',
    sentiment: 'positive',
    lines: [
      ['agent', 'Thanks for calling {company}, this is {agent}.'],
      ['caller', 'Hello, we are looking at your business plan for about twenty users.'],
      ['agent', 'Great. Do you need call recording and queues as well?'],
      ['caller', 'Yes, recording with transcripts is the main reason we are calling.'],
      ['agent', 'That is included in the professional plan. I can prepare a quote today.'],
      ['caller', 'Perfect, please send it over and we can start a trial on {day}.'],
      ['agent', 'I will book the trial for {day} and e-mail the quote within the hour.'],
    ],
    summary:
      'Prospect wants about 20 users with recording and transcripts; {agent} will send a quote and book a trial on {day}.',
  },
  {
    topic: 'support',
    sentiment: 'negative',
    lines: [
      ['agent', '{company} support, {agent} speaking.'],
      ['caller', 'Our phones have been dropping calls since this morning, it is the third time I call.'],
      ['agent', 'I am sorry about that. Can you give me your ticket number?'],
      ['caller', 'It is {ref}. Nobody called me back yesterday.'],
      ['agent', 'I see the ticket. The issue is with the router firmware, I will escalate it now.'],
      ['caller', 'I need this fixed today, we are losing customers.'],
      ['agent', 'Understood. An engineer will call you before {day}, and I will keep the ticket open.'],
    ],
    summary:
      'Frustrated caller reports dropped calls (ticket {ref}); {agent} escalated to an engineer with a callback promised before {day}.',
  },
  {
    topic: 'appointment',
    sentiment: 'positive',
    lines: [
      ['agent', 'Good {part}, {company}, {agent} here.'],
      ['caller', 'Hi, I would like to book an installation visit.'],
      ['agent', 'Sure. Would {day} in the morning work for you?'],
      ['caller', 'Yes, ten o clock is fine.'],
      ['agent', 'Booked for {day} at ten. You will get a confirmation by text message.'],
      ['caller', 'Lovely, thank you very much.'],
    ],
    summary: 'Installation visit booked for {day} at 10:00; confirmation SMS to follow.',
  },
  {
    topic: 'delivery',
    sentiment: 'neutral',
    lines: [
      ['caller', 'Hello, I am calling about order {ref}, it has not arrived yet.'],
      ['agent', 'Let me check that for you. It left our warehouse yesterday.'],
      ['caller', 'Do you know when it will be delivered?'],
      ['agent', 'The courier shows delivery on {day}. I will send you the tracking link.'],
      ['caller', 'OK, thanks.'],
    ],
    summary: 'Caller chased order {ref}; {agent} confirmed delivery on {day} and sent the tracking link.',
  },
  {
    topic: 'renewal',
    sentiment: 'positive',
    lines: [
      ['agent', 'Hi, this is {agent} from {company}, calling about your contract renewal.'],
      ['caller', 'Yes, I saw the e-mail. Is the price the same?'],
      ['agent', 'It is, and if you renew for two years we can take ten percent off, so {amount} a month.'],
      ['caller', 'Two years sounds fine. Send me the paperwork.'],
      ['agent', 'Great, you will have it today. Thanks for staying with us.'],
    ],
    summary: 'Customer agreed to a two-year renewal at {amount} per month; {agent} is sending the paperwork.',
  },
  {
    topic: 'complaint',
    sentiment: 'negative',
    lines: [
      ['caller', 'I was charged twice for the same month and I want a refund.'],
      ['agent', 'I am sorry to hear that. Can I have the invoice reference?'],
      ['caller', 'It is {ref}. This is not acceptable.'],
      ['agent', 'You are right, I can see the duplicate payment of {amount}. I have raised a refund.'],
      ['caller', 'How long will it take?'],
      ['agent', 'Three to five working days. I will e-mail you the confirmation.'],
    ],
    summary: 'Duplicate charge of {amount} on {ref}; refund raised by {agent}, 3–5 working days.',
  },
];

const DE: readonly Scenario[] = [
  {
    topic: 'delivery',
    sentiment: 'neutral',
    lines: [
      ['agent', 'Guten Tag, {company}, {agent} am Apparat.'],
      ['caller', 'Hallo, ich rufe wegen der Lieferung {ref} an.'],
      ['agent', 'Einen Moment bitte. Die Sendung wird am {day} zugestellt.'],
      ['caller', 'Gut, danke schön.'],
    ],
    summary: 'Anrufer fragte nach Lieferung {ref}; Zustellung am {day} bestätigt.',
  },
  {
    topic: 'sales',
    sentiment: 'positive',
    lines: [
      ['agent', '{company}, {agent}, was kann ich für Sie tun?'],
      ['caller', 'Wir brauchen ein Angebot für zwei Lkw-Touren nach Polen.'],
      ['agent', 'Sehr gerne. Ich schicke Ihnen das Angebot bis {day}.'],
      ['caller', 'Prima, vielen Dank.'],
    ],
    summary: 'Angebotsanfrage für zwei Touren nach Polen; Angebot bis {day} zugesagt.',
  },
];

const VOICEMAIL_EN = [
  'Hi, this is a message for {agent}. Please call me back about order {ref} when you get a chance. Thanks.',
  'Hello, I am calling about the quote you sent. Could you ring me back on {day}? Cheers.',
  'Hi {agent}, just confirming our meeting on {day}. No need to call back unless it changes.',
  'Hello, this is about invoice {ref}. There seems to be a mistake, please call me back.',
  'Good {part}, I would like to speak to someone about upgrading our plan. Please call me.',
];
const VOICEMAIL_DE = [
  'Hallo {agent}, bitte rufen Sie mich wegen Auftrag {ref} zurück. Danke.',
  'Guten Tag, hier ist eine Nachricht zur Lieferung am {day}. Bitte um Rückruf.',
];

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const TAGE = ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag'];

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
}

function vars(rng: Rng, agent: string, company: string, german: boolean): Record<string, string> {
  return {
    agent,
    company,
    ref: `${rng.pick(['INV', 'ORD', 'TKT'])}-${rng.int(10_000, 99_999)}`,
    day: rng.pick(german ? TAGE : DAYS),
    amount: german ? `${rng.int(20, 900)},00 €` : `£${rng.int(20, 900)}.00`,
    part: rng.pick(['morning', 'afternoon']),
  };
}

/** A few AI results for one agent, built from the scenario templates. */
export function buildTranscriptPool(
  rng: Rng,
  agent: string,
  company: string,
  language: string,
  size: number,
): TranscriptEntry[] {
  const german = language.startsWith('de');
  const scenarios = german ? DE : EN;
  return Array.from({ length: size }, () => {
    const s = rng.pick(scenarios);
    const v = vars(rng, agent.split(' ')[0] ?? agent, company, german);
    let t = 0;
    const segments = s.lines.map(([speaker, text]) => {
      const line = fill(text, v);
      const start = t;
      t += Math.round((1.2 + line.length / 14 + rng.next()) * 10) / 10;
      const seg = { speaker, start: Math.round(start * 10) / 10, end: Math.round(t * 10) / 10, text: line };
      t += 0.4;
      return seg;
    });
    const base = s.sentiment === 'positive' ? 82 : s.sentiment === 'neutral' ? 64 : 31;
    const words = segments.reduce((n, x) => n + x.text.split(' ').length, 0);
    return {
      transcript: segments.map((x) => `${x.speaker === 'agent' ? 'Agent' : 'Caller'}: ${x.text}`).join('\n'),
      transcript_speakers: JSON.stringify(segments),
      summary: fill(s.summary, v),
      sentiment: s.sentiment,
      cx_score: Math.min(100, Math.max(0, base + rng.int(-12, 12))),
      metadata: Object.freeze({ language, topic: s.topic, words, model: 'asr-large-v3', speakers: 2 }),
    };
  });
}

/** Transcripts of voice messages left for one user. */
export function buildVoicemailPool(rng: Rng, agent: string, language: string, size: number): string[] {
  const german = language.startsWith('de');
  return Array.from({ length: size }, () =>
    fill(rng.pick(german ? VOICEMAIL_DE : VOICEMAIL_EN), vars(rng, agent.split(' ')[0] ?? agent, '', german)),
  );
}
