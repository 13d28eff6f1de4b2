import { z } from 'zod';
import {
  PG_TYPES,
  RowMappingError,
  STREAM_NAMES,
  STREAM_TABLES,
  isStreamName,
  streamTable,
  type Cell,
  type StreamName,
} from '../../connectors/postgres';
import { fixture, RAW_RECORDS, STREAM_SCHEMAS } from './warehouse-fixtures';

/** Maps a stream's fixture (with overrides) and returns the cells by column name. */
function mapped(stream: StreamName, overrides: Record<string, unknown> = {}): Record<string, Cell> {
  const spec = streamTable(stream);
  const { record, raw } = fixture(stream, overrides);
  const row = spec.mapRow(record, raw);
  expect(row).toHaveLength(spec.columns.length);
  return Object.fromEntries(spec.columns.map((c, i) => [c.name, row[i] as Cell]));
}

describe('stream table registry', () => {
  it('covers the fourteen streams, each in its own table', () => {
    expect(STREAM_NAMES).toHaveLength(14);
    for (const name of STREAM_NAMES) {
      expect(STREAM_TABLES[name].stream).toBe(name);
      expect(STREAM_TABLES[name].table).toBe(name);
    }
    expect(isStreamName('cdrs')).toBe(true);
    expect(isStreamName('monitors')).toBe(false);
    expect(() => streamTable('nope' as StreamName)).toThrow(/Unknown warehouse stream/);
  });

  it.each(STREAM_NAMES)('%s: one column per schema field, id first and raw last, typed', (name) => {
    const spec = STREAM_TABLES[name];
    const names = spec.columns.map((c) => c.name);
    const shape = Object.keys((STREAM_SCHEMAS[name] as z.ZodObject).shape);
    expect(names[0]).toBe('id');
    expect(names[names.length - 1]).toBe('raw');
    expect(names.slice(0, -1).sort()).toEqual([...shape].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const c of spec.columns) expect(c.pgType).toBe(PG_TYPES[c.kind]);
    expect(spec.hasAudio).toBe(name === 'recordings' || name === 'voicemessages');
  });

  it.each(STREAM_NAMES)('%s: the fixture maps with a value in every column it sets', (name) => {
    const cells = mapped(name);
    const raw = RAW_RECORDS[name];
    expect(cells.raw).toEqual(raw);
    for (const [column, value] of Object.entries(cells)) {
      const sent = raw[column];
      const absent = sent === null || sent === '' || sent === undefined || sent === '0000-00-00 00:00:00';
      if (!absent) expect([column, value]).not.toEqual([column, null]);
    }
  });
});

describe('row mappers', () => {
  it('cdrs: coerced codes, money, UTC timestamp, deprecated fields; extras stay in raw only', () => {
    expect(mapped('cdrs')).toEqual({
      id: 100234,
      duration: 74,
      live_id: 5501234,
      parent_live_id: 0,
      user_id: 120012,
      sip_endpoint_id: 31,
      server_id: 2,
      type: 'O',
      calldate: '2026-10-30 09:15:02+00',
      clid: '"Anna Kowalska" <+48221234567>',
      src_id: '120012',
      src_name: 'Anna Kowalska',
      src: '+48221234567',
      src_ua: 'Yealink SIP-T46U 108.86.0.45',
      src_codec: 'PCMA',
      dst_id: 'contact:881',
      dst: '+442071234567',
      dst_name: 'Acme Ltd',
      dst_ua: '',
      dst_codec: 'PCMA',
      billsec: 61,
      disposition: 'CONNECTED',
      destination: 'out',
      context: 'PSTN_CALL',
      rate: 0.0125,
      charge: 0.025,
      t_cause: 'Normal Clearing',
      info: 'line one\nline\ttwo \\ end',
      call_id: 991,
      is_root: true,
      root_live_id: 5501230,
      raw: RAW_RECORDS.cdrs,
    });
  });

  it('recordings: a recording before its transcript; metadata kept as JSON', () => {
    expect(mapped('recordings')).toEqual({
      id: 88001,
      created_at: '2026-10-30 09:16:20+00',
      token: 'b3f1c2d4e5',
      live_id: 5501234,
      transcript: null,
      transcript_speakers: '',
      summary: null,
      sentiment: null,
      cx_score: null,
      metadata: { language: 'en', model: 'v2' },
      raw: RAW_RECORDS.recordings,
    });
    const done = mapped('recordings', {
      transcript: 'Hello',
      summary: 'Greeting',
      sentiment: 'positive',
      cx_score: '8',
    });
    expect(done).toMatchObject({
      transcript: 'Hello',
      summary: 'Greeting',
      sentiment: 'positive',
      cx_score: 8,
    });
  });

  it('voicemessages: folder code as text, origtime kept as sent', () => {
    expect(mapped('voicemessages')).toMatchObject({
      id: 4401,
      duration: 23,
      folder: '1',
      is_new: true,
      origtime: '1793352000',
      transcript: 'Hi, please call me back about the invoice.',
    });
  });

  it('sms', () => {
    expect(mapped('sms')).toMatchObject({
      created_at: '2026-10-30 10:01:00+00',
      from: '+48221234567',
      to: '+447700900123',
      message: 'Your order has shipped 📦',
      user_id: 120012,
    });
  });

  it('faxes: charge as money, status and type codes as text', () => {
    expect(mapped('faxes')).toMatchObject({ charge: 0.1, pages: 3, status: '2', type: '1' });
  });

  it('chats', () => {
    expect(mapped('chats')).toMatchObject({
      state: '3',
      visitor_city: 'Kraków',
      website_id: 9,
      duration: 340,
    });
  });

  it('msdrs', () => {
    expect(mapped('msdrs')).toMatchObject({ call_id: 'c-5501234', media_session_id: 77001, dst_ua: '' });
  });

  it('contacts: zero date and blank date become NULL, notes JSON', () => {
    expect(mapped('contacts')).toMatchObject({
      dial_flow_completed_at: null,
      next_call_at: null,
      last_call_at: '2026-10-30 09:15:02+00',
      global: false,
      nb_call_attempts: 2,
      notes: 'Prefers mornings',
      type: '1',
    });
  });

  it('users: lists as JSON arrays, customer filled into customer_id_id', () => {
    expect(mapped('users')).toMatchObject({
      roles: ['ROLE_ADMIN', 'ROLE_USER'],
      visited_apps: ['web', 'mobile'],
      vm_emails: ['anna@example.com'],
      fm_targets: [],
      two_factor_auth: 'E',
      customer: 55,
      customer_id_id: 55,
      is_initial: true,
      fm_strategy: 'A',
    });
  });

  it('queues: codes as text, caller_sounds JSON', () => {
    expect(mapped('queues')).toMatchObject({
      monitor: '1',
      ring_strategy: 'ringall',
      caller_sounds: ['welcome', 'hold'],
      wrap_up_panel: true,
    });
  });

  it('ring_groups', () => {
    expect(mapped('ring_groups')).toMatchObject({ final_dst_type: '4', strategy: '0', ring_time: 25 });
  });

  it('report_schedules: date-only and ISO times normalised; frequency and emails JSON', () => {
    expect(mapped('report_schedules')).toMatchObject({
      end_at: '2027-09-01 00:00:00+00',
      next_run_at: '2026-11-02 08:00:00+00',
      emails: ['boss@example.com', 'ops@example.com'],
      frequency: { type: 'weekly', time_of_day: ['08:00'], day_of_week: [1] },
      status: '1',
    });
  });

  it.each(['callmeback_cdrs', 'callmeback_visitors'] as const)('%s', (name) => {
    expect(mapped(name)).toMatchObject({
      allowed_countries: 'PL,GB,DE',
      max_call_rate: 0.25,
      floating_icon: true,
      show_to_allowed_countries_only: true,
      position: '2',
      ddi: 48221234567,
    });
  });

  it('is pure: same input, same output, input untouched', () => {
    const { record, raw } = fixture('cdrs');
    const before = JSON.stringify(raw);
    const a = STREAM_TABLES.cdrs.mapRow(record, raw);
    const b = STREAM_TABLES.cdrs.mapRow(record, raw);
    expect(a).toEqual(b);
    expect(JSON.stringify(raw)).toBe(before);
  });
});

describe('values no column can hold', () => {
  it('an impossible date names its column', () => {
    const err = (() => {
      try {
        mapped('cdrs', { calldate: '2026-02-30 10:00:00' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(RowMappingError);
    expect((err as RowMappingError).column).toBe('calldate');
  });

  it('money beyond numeric(12,4)', () => {
    expect(() => mapped('cdrs', { charge: '123456789.5' })).toThrow(RowMappingError);
    expect(mapped('cdrs', { charge: '99999999.9999' }).charge).toBe(99999999.9999);
  });

  it('a raw record that is not an object', () => {
    const { record } = fixture('sms');
    expect(() => STREAM_TABLES.sms.mapRow(record, 'text')).toThrow(RowMappingError);
  });

  it('a value of the wrong type (schema bypassed)', () => {
    const { record, raw } = fixture('cdrs');
    expect(() => STREAM_TABLES.cdrs.mapRow({ ...record, duration: 1.5 }, raw)).toThrow(
      /duration must be an integer/,
    );
    expect(() => STREAM_TABLES.cdrs.mapRow({ ...record, is_root: 'yes' as never }, raw)).toThrow(/is_root/);
  });
});
