import type { Row } from '../store/types';
import { emailLocalPart, PEOPLE } from './names';
import { e164 } from './phone-numbers';
import type { Rng } from './prng';
import type { CustomerProfile, IdCounters } from './profiles';
import { ddiRow, ivrRow, queueRow, ringGroupRow, userRow } from './directory-rows';
import type { DdiInfo, GroupInfo, UserInfo } from './directory-types';

export type { DdiInfo, GroupInfo, UserInfo } from './directory-types';

/** The routing setup of one customer. */
export interface Directory {
  profile: CustomerProfile;
  users: UserInfo[];
  queues: GroupInfo[];
  ringGroups: GroupInfo[];
  ivrs: GroupInfo[];
  ddis: DdiInfo[];
  mainNumber: string;
}

const DESK_PHONES: readonly (readonly [string, string])[] = [
  ['Yealink SIP-T46U 108.86.0.45', 'G722'],
  ['Yealink SIP-T54W 96.86.0.70', 'G722'],
  ['Polycom/7.2.2.1094 PolycomVVX-VVX_450-UA/7.2.2.1094', 'G722'],
  ['Grandstream GXP2170 1.0.11.23', 'PCMA'],
  ['Zoiper rv2.10.19.5', 'opus'],
  ['MicroSIP/3.21.3', 'opus'],
  ['Linphone/5.2.5 (belle-sip/5.2.94)', 'opus'],
  ['Bria 6 release 6.7.0 stamp 120123', 'PCMU'],
];

/** Starts of user creation: the accounts predate the seeded call history. */
const ACCOUNT_EPOCH = Date.UTC(2024, 2, 4, 9, 30, 0) / 1000;

/** Users, groups, IVRs and numbers of one customer, as rows and as the generator's directory. */
export function buildDirectory(
  profile: CustomerProfile,
  rng: Rng,
  ids: IdCounters,
): { directory: Directory; rows: Record<string, Row[]> } {
  const rows: Record<string, Row[]> = {};
  const add = (table: string, row: Row): Row => {
    (rows[table] ??= []).push(row);
    return row;
  };
  const roles = ['ROLE_ADMIN', 'ROLE_SUPERVISOR', 'ROLE_AGENT', 'ROLE_USER'].map((role) =>
    add('aclroles', {
      id: ids.take('aclroles'),
      _name: role,
      name: role.slice(5).charAt(0) + role.slice(6).toLowerCase(),
      product_code: 'voipstudio',
    }),
  );
  const groupNames = ['Front Office', 'Field Team', 'Night Shift', 'Trainees'];
  const colors = ['#1e88e5', '#43a047', '#fb8c00', '#8e24aa', '#e53935', '#00897b'];
  for (const [i, name] of groupNames.slice(0, profile.users > 10 ? 4 : 2).entries()) {
    add('usergroups', { id: ids.take('usergroups'), color: colors[i] ?? '#546e7a', name });
  }
  for (const [i, name] of ['Standard Agent', 'Restricted International'].entries()) {
    add('usergrouppolicies', { id: ids.take('usergrouppolicies'), color: colors[i + 3] ?? '#546e7a', name });
  }
  for (const name of profile.users > 10 ? ['Inbound', 'Outbound'] : ['Alle']) {
    add('queuegroups', { id: ids.take('queuegroups'), name });
  }

  const mainNumber = e164(rng, profile.country, false);
  const people = PEOPLE[profile.country];
  const usedNames = new Set<string>();
  const users: UserInfo[] = [];
  const pickupGroups = profile.users > 10 ? ['Sales Floor', 'Support Desk', 'Back Office'] : ['Büro'];
  const pickupIds = pickupGroups.map(() => ids.take('pickupgroups'));
  for (let i = 0; i < profile.users; i++) {
    let first = rng.pick(people.first);
    let last = rng.pick(people.last);
    while (usedNames.has(`${first} ${last}`)) {
      first = rng.pick(people.first);
      last = rng.pick(people.last);
    }
    usedNames.add(`${first} ${last}`);
    const id = ids.take('users');
    const [ua, codec] = rng.pick(DESK_PHONES);
    const monitor = rng.weighted<UserInfo['monitor']>([
      ['A', 20],
      ['I', 10],
      ['O', 10],
      ['N', 60],
    ]);
    const info: UserInfo = {
      id,
      ext: String(101 + i),
      name: `${first} ${last}`,
      email: i === 0 ? profile.adminEmail : `${emailLocalPart(first, last)}@${profile.domain}`,
      ua,
      codec,
      monitor,
      transcribe: rng.chance(0.8),
      finalDst: rng.weighted<UserInfo['finalDst']>([
        ['V', 60],
        ['H', 30],
        ['R', 10],
      ]),
      cli: mainNumber,
      mobile: e164(rng, profile.country, true),
      sipEndpointId: 40_000 + id,
    };
    users.push(info);
    const created = ACCOUNT_EPOCH + i * 86_400 * 3 + rng.int(0, 30_000);
    add('users', userRow(profile, info, i, rng, created, roles, pickupIds[i % pickupIds.length] ?? null));
  }
  for (const [i, name] of pickupGroups.entries()) {
    const members = users.filter((_, u) => u % pickupIds.length === i).length;
    add('pickupgroups', { id: pickupIds[i] ?? 0, name, users: members });
  }

  const slice = (from: number, n: number): UserInfo[] =>
    Array.from({ length: Math.min(n, users.length) }, (_, k) => users[(from + k) % users.length] as UserInfo);
  const per = Math.max(2, Math.floor(users.length / Math.max(1, profile.queues.length)));
  const queues: GroupInfo[] = profile.queues.map((name, i) => ({
    id: ids.take('queues'),
    name,
    number: String(601 + i),
    members: slice(2 + i * per, per + 2),
    monitor: i < 2,
  }));
  const ringGroups: GroupInfo[] = profile.ringGroups.map((name, i) => ({
    id: ids.take('ringgroups'),
    name,
    number: String(701 + i),
    members: slice(i * 3, 3),
    monitor: false,
  }));
  const ivrs: GroupInfo[] = profile.ivrs.map((name, i) => ({
    id: ids.take('ivrs'),
    name,
    number: String(801 + i),
    members: [],
    monitor: false,
  }));
  for (const q of queues) add('queues', queueRow(q, rng, ivrs[0]?.id ?? 0));
  for (const g of ringGroups) add('ringgroups', ringGroupRow(g, rng));
  for (const [i, v] of ivrs.entries()) add('ivrs', ivrRow(v, i, profile, queues, ringGroups, users));

  const ddis: DdiInfo[] = profile.ddiCountries.map((country, i) => {
    const number = i === 0 ? mainNumber : e164(rng, country, false);
    const kinds: DdiInfo['targetKind'][] = ['ivr', 'queue', 'queue', 'ringgroup', 'user'];
    const targetKind = kinds[i % kinds.length] ?? 'user';
    const pool = { ivr: ivrs, queue: queues, ringgroup: ringGroups, user: users }[targetKind];
    const target = pool[i % pool.length] ?? users[0];
    return { e164: number, country, targetKind, targetId: target?.id ?? 0, tracking: false };
  });
  for (let t = 0; t < (profile.users > 10 ? 2 : 0); t++) {
    const q = queues[0];
    ddis.push({
      e164: e164(rng, profile.country, false),
      country: profile.country,
      targetKind: 'queue',
      targetId: q?.id ?? 0,
      tracking: true,
    });
  }
  for (const [i, d] of ddis.entries()) add('ddis', ddiRow(d, profile, rng, ACCOUNT_EPOCH + i * 86_400 * 9));
  return { directory: { profile, users, queues, ringGroups, ivrs, ddis, mainNumber }, rows };
}
