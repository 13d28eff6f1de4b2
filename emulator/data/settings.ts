import type { Row } from '../store/types';
import { formatEpoch } from './calendar';
import type { CallContext } from './calls';
import type { Directory } from './directory';
import { PEOPLE } from './names';
import { e164 } from './phone-numbers';
import type { Rng } from './prng';
import type { IdAllocator } from './profiles';

type Rows = Record<string, Row[]>;

function push(rows: Rows, table: string, row: Row): void {
  (rows[table] ??= []).push(row);
}

/** Call flows, conferences, routing rules, labels, canned SMS, announcements and the AI dictionary. */
export function buildSettings(dir: Directory, rng: Rng, ids: IdAllocator, since: number): Rows {
  const rows: Rows = {};
  const big = dir.users.length > 10;
  const at = (days: number): string => formatEpoch(since + days * 86_400 + rng.int(0, 30_000));
  const flows = big
    ? ['Business hours', 'Out of hours', 'Holiday closure', 'Overflow to US']
    : ['Geschäftszeiten'];
  for (const [i, name] of flows.entries()) {
    push(rows, 'callflows', {
      id: ids.take('callflows'),
      created_at: at(i * 5),
      description: `${name} routing`,
      name,
      status: i === 2 ? 'I' : 'A',
      thumbnail: `https://cdn.${dir.profile.domain}/callflows/${i + 1}.png`,
    });
  }
  for (const [i, name] of (big ? ['All hands', 'Sales stand-up', 'Board room'] : ['Team']).entries()) {
    push(rows, 'conferences', {
      id: ids.take('conferences'),
      ann_join_leave: i !== 2,
      confno: 9001 + i,
      confno_pstn: 49_001 + i,
      monitor: i === 1,
      name,
      pin: rng.digits(4),
      pin_pstn: rng.digits(6),
    });
  }
  const rules: readonly [string, number, string, string][] = [
    ['block', 1, 'anonymous', 'all'],
    ['ivr', 1, dir.ddis[0]?.e164 ?? '', `IVR:${dir.ivrs[1]?.id ?? 0}`],
    ['user', 2, String(dir.users[0]?.id ?? 0), '+1%'],
    ['block', 2, 'all', '+900%'],
    ['queue', 1, dir.ddis[1]?.e164 ?? '', `Q:${dir.queues[0]?.id ?? 0}`],
  ];
  for (const [i, [action, direction, source, destination]] of rules.slice(0, big ? 5 : 2).entries()) {
    push(rows, 'routingrules', {
      id: ids.take('routingrules'),
      action,
      customer: dir.profile.id,
      destination,
      direction,
      final_dst: action === 'block',
      pos: i + 1,
      source,
      time_interval: i === 1 ? 'out-of-hours' : '',
    });
  }
  const labels = big
    ? [
        ['Sale', '#43a047'],
        ['Complaint', '#e53935'],
        ['Follow-up', '#fb8c00'],
        ['VIP', '#8e24aa'],
        ['Spam', '#757575'],
        ['Resolved', '#1e88e5'],
      ]
    : [
        ['Rückruf', '#fb8c00'],
        ['Erledigt', '#43a047'],
      ];
  for (const [i, [name, color]] of labels.entries()) {
    push(rows, 'calllabels', { id: ids.take('calllabels'), name, color, created_at: at(i) });
  }
  const canned = big
    ? [
        ['Running late', 'Sorry, I am running about 10 minutes late. Speak soon.'],
        ['Call back', 'Thanks for your call. We will call you back within one business day.'],
        ['Opening hours', 'We are open Monday to Friday, 8:30 to 17:30 UK time.'],
        ['Payment link', 'You can pay your invoice securely online from your account page.'],
        ['Delivery', 'Your order has been dispatched and should arrive within 2 working days.'],
      ]
    : [['Rückruf', 'Danke für Ihren Anruf, wir melden uns heute noch.']];
  for (const [i, [name, text]] of canned.entries()) {
    push(rows, 'cannedresponses', {
      id: ids.take('cannedresponses'),
      name,
      text,
      created_at: at(10 + i),
      user_id: dir.users[0]?.id ?? null,
    });
  }
  for (const [i, u] of dir.users.slice(0, big ? 3 : 1).entries()) {
    push(rows, 'vmannouncements', {
      id: ids.take('vmannouncements'),
      created_at: at(20 + i),
      description: `${u.name} voicemail greeting`,
      extension: Number(u.ext),
    });
  }
  const words = big
    ? [
        'Acme Telecom',
        'SIP trunk',
        'VoIPstudio',
        'Yealink',
        'call recording',
        'porting',
        'DDI',
        'IVR',
        'softphone',
        'Renewals',
      ]
    : ['Globex', 'Spedition', 'Lieferschein'];
  for (const [i, token] of words.entries()) {
    push(rows, 'monitoraidictionary', { id: ids.take('monitoraidictionary'), created_at: at(30 + i), token });
  }
  return rows;
}

const WEBSITE_PATHS = [
  '/pricing',
  '/contact',
  '/features/call-recording',
  '/blog/choosing-a-voip-provider',
  '/',
];

/** Call Me Back widgets and visitors, call-tracking numbers and campaigns; and what calls need from them. */
export function buildWidgets(
  dir: Directory,
  rng: Rng,
  ids: IdAllocator,
  since: number,
): { rows: Rows; callMeBack: CallContext['callMeBack']; tracking: CallContext['tracking'] } {
  const rows: Rows = {};
  const big = dir.users.length > 10;
  const domain = `www.${dir.profile.domain}`;
  const ddiNumber = Number(dir.mainNumber.slice(1));
  const websiteIds: number[] = [];
  for (const [i, host] of (big ? [domain, `shop.${dir.profile.domain}`] : [domain]).entries()) {
    const id = ids.take('callmeback_websites');
    websiteIds.push(id);
    push(rows, 'callmeback_websites', {
      id,
      name: host,
      url: `https://${host}`,
      created_at: formatEpoch(since + i * 86_400),
      title: dir.profile.name,
    });
  }
  const buttonIds: number[] = [];
  for (const [i, name] of (big ? ['Pricing page', 'Contact page', 'Shop checkout'] : ['Kontakt']).entries()) {
    const id = ids.take('callmeback_buttons');
    buttonIds.push(id);
    push(rows, 'callmeback_buttons', {
      id,
      name,
      data_online: 'Talk to us now - we call you back in 30 seconds',
      data_offline: 'Leave your number and we call you back tomorrow',
      created_at: formatEpoch(since + (i + 2) * 86_400),
      website_id: websiteIds[i % websiteIds.length] ?? null,
    });
  }
  for (const [i, buttonId] of buttonIds.slice(0, big ? 2 : 1).entries()) {
    push(rows, 'callmeback_settings', {
      id: ids.take('callmeback_settings'),
      allowed_countries: big ? 'GB,IE,US' : 'DE,AT,CH',
      button_id: buttonId,
      created_at: formatEpoch(since + (i + 3) * 86_400),
      culture: big ? 1 : 3,
      ddi: ddiNumber,
      floating_icon: i === 0,
      max_call_rate: 0.05,
      name: `Widget ${i + 1}`,
      position: i + 1,
      privacy_policy_url: `https://${domain}/privacy`,
      show_to_allowed_countries_only: i === 1,
      title: big ? 'Want us to call you?' : 'Rückruf gewünscht?',
      welcome_screen_msg: big
        ? 'Enter your number and we will call you right away.'
        : 'Nummer eingeben, wir rufen zurück.',
    });
  }
  const visitors: CallContext['callMeBack']['visitors'] = [];
  const countries = big ? (['GB', 'GB', 'US'] as const) : (['DE'] as const);
  for (let i = 0; i < (big ? 60 : 8); i++) {
    const country = rng.pick(countries);
    const name = `${rng.pick(PEOPLE[country].first)} ${rng.pick(PEOPLE[country].last)}`;
    const number = e164(rng, country, rng.chance(0.7));
    const id = ids.take('callmeback_visitors');
    visitors.push({ id, number, name });
    push(rows, 'callmeback_visitors', {
      id,
      name,
      number,
      country,
      button_id: rng.pick(buttonIds),
      created_at: formatEpoch(since + rng.int(5, 180) * 86_400),
      ip: `${rng.int(2, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
      referer: `https://${domain}${rng.pick(WEBSITE_PATHS)}`,
    });
  }
  const tracking: CallContext['tracking'] = [];
  const sources = ['google / cpc', 'bing / cpc', 'newsletter / email', 'linkedin / social'];
  const trackingDdis = dir.ddis.filter((d) => d.tracking);
  const campaignIds = trackingDdis.map((d, i) => {
    const id = ids.take('calltracking_campaigns');
    push(rows, 'calltracking_campaigns', {
      id,
      name: i === 0 ? 'Search ads Q4' : 'Newsletter November',
      url: `https://${domain}/lp/${i === 0 ? 'voip-offer' : 'newsletter'}`,
      rules: [{ source: sources[i] ?? 'direct', ddi: d.e164 }],
      chat_setting_id: null,
      call_me_back_setting_id: null,
      call_tracking_setting_id: i + 1,
      created_at: formatEpoch(since + (i + 30) * 86_400),
      status: 1,
    });
    return id;
  });
  for (const [i, d] of trackingDdis.entries()) {
    const campaignId = campaignIds[i] ?? 0;
    tracking.push({
      ddi: d.e164,
      campaignId,
      source: sources[i] ?? 'direct',
      landingPage: `https://${domain}/lp/${i}`,
    });
    push(rows, 'calltracking_ddis', {
      id: d.e164,
      e164: d.e164,
      campaign_id: campaignId,
      name: `Tracking ${d.e164.slice(-4)}`,
      created_at: formatEpoch(since + (i + 30) * 86_400),
      status: 1,
      target_type: 4,
      target_id: d.targetId,
    });
  }
  return { rows, callMeBack: { buttonIds, visitors }, tracking };
}
