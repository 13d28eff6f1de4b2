// The warehouse side of each stream: its table, its columns in COPY order with their PostgreSQL
// types, and a pure mapper from a parsed record (plus the raw record) to those columns' values.
import type {
  CallMeBack,
  Cdr,
  Chat,
  Contact,
  Fax,
  Monitor,
  Msdr,
  Queue,
  ReportSchedule,
  RingGroup,
  Sms,
  User,
  Voicemessage,
} from '../platform/schemas';
import { cdrFields, msdrFields } from './tables/cdrs';
import { callMeBackFields } from './tables/callmeback';
import { PG_TYPES, type ColumnKind } from './tables/columns';
import { contactFields, userFields } from './tables/directory';
import { recordingFields, voicemessageFields } from './tables/media';
import { chatFields, faxFields, smsFields } from './tables/messages';
import { queueFields, reportScheduleFields, ringGroupFields } from './tables/settings';
import { InvalidTimestampError, toTimestampText } from './timestamps';

export const STREAM_NAMES = [
  'cdrs',
  'recordings',
  'voicemessages',
  'sms',
  'faxes',
  'chats',
  'msdrs',
  'contacts',
  'users',
  'queues',
  'ring_groups',
  'report_schedules',
  'callmeback_cdrs',
  'callmeback_visitors',
] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** Parsed record type (zod output) of each stream. */
export interface StreamRecords {
  cdrs: Cdr;
  recordings: Monitor;
  voicemessages: Voicemessage;
  sms: Sms;
  faxes: Fax;
  chats: Chat;
  msdrs: Msdr;
  contacts: Contact;
  users: User;
  queues: Queue;
  ring_groups: RingGroup;
  report_schedules: ReportSchedule;
  callmeback_cdrs: CallMeBack;
  callmeback_visitors: CallMeBack;
}

/** Streams whose rows carry an archived audio file. */
export type AudioStream = 'recordings' | 'voicemessages';

/** One record of a page: the parsed record and the record as received. */
export interface PageRecord<S extends StreamName = StreamName> {
  record: StreamRecords[S];
  raw: unknown;
}

export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  /** PostgreSQL type as migrations write it (`bigint`, `numeric(12,4)`, `timestamptz`…). */
  readonly pgType: string;
}

/**
 * A mapped cell. Timestamps are normalised timestamptz text (`2026-10-30 09:15:02+00`); JSON
 * columns hold the value itself (the COPY encoder writes it as JSON text); null is SQL NULL.
 */
export type Cell = string | number | boolean | null | object;

export interface StreamTableSpec<S extends StreamName = StreamName> {
  readonly stream: S;
  readonly table: S;
  /** Mapped columns in order: `id`, one per schema field, then `raw`. COPY puts `account` first. */
  readonly columns: readonly ColumnSpec[];
  /** Whether the table has audio_uri, audio_bytes and audio_archived_at. */
  readonly hasAudio: boolean;
  /** Pure: the values of `columns`, in order. Throws RowMappingError when a value cannot be stored. */
  mapRow(record: StreamRecords[S], raw: unknown): Cell[];
}

/** A field value no column of its kind can hold; the record is quarantined instead of stored. */
export class RowMappingError extends Error {
  override readonly name = 'RowMappingError';
  constructor(
    readonly column: string,
    readonly problem: string,
  ) {
    super(`${column} ${problem}`);
  }
}

// numeric(12,4) holds 8 integer digits; anything that would round to 1e8 overflows.
const NUMERIC_LIMIT = 99_999_999.99995;

type Convert = (value: unknown, column: string) => Cell;

const wrongType = (column: string, expected: string) => new RowMappingError(column, `must be ${expected}`);

const CONVERTERS: Readonly<Record<ColumnKind, Convert>> = {
  bigint: (v, col) => {
    if (v == null) return null;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
    throw wrongType(col, 'an integer');
  },
  double: (v, col) => {
    if (v == null) return null;
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    throw wrongType(col, 'a finite number');
  },
  numeric: (v, col) => {
    if (v == null) return null;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw wrongType(col, 'a finite number');
    if (Math.abs(v) >= NUMERIC_LIMIT) throw new RowMappingError(col, 'is out of range for numeric(12,4)');
    return v;
  },
  text: (v, col) => {
    if (v == null || typeof v === 'string') return v ?? null;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw wrongType(col, 'a string');
  },
  boolean: (v, col) => {
    if (v == null || typeof v === 'boolean') return v ?? null;
    throw wrongType(col, 'a boolean');
  },
  timestamptz: (v, col) => {
    if (v == null) return null;
    if (typeof v !== 'string') throw wrongType(col, 'a date string');
    try {
      return toTimestampText(v);
    } catch (err) {
      if (err instanceof InvalidTimestampError) throw new RowMappingError(col, err.message);
      throw err;
    }
  },
  jsonb: (v, col) => {
    if (v == null) return null;
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint')
      throw wrongType(col, 'JSON');
    return v;
  },
};

function defineStreamTable<S extends StreamName>(
  stream: S,
  fields: Readonly<Record<string, ColumnKind>>,
  hasAudio = false,
): StreamTableSpec<S> {
  const names = Object.keys(fields);
  if (names[0] !== 'id') throw new Error(`${stream}: the first field must be id`);
  const columns: ColumnSpec[] = names.map((name) => {
    const kind = fields[name] as ColumnKind;
    return { name, kind, pgType: PG_TYPES[kind] };
  });
  columns.push({ name: 'raw', kind: 'jsonb', pgType: PG_TYPES.jsonb });
  const converters = names.map((name) => CONVERTERS[fields[name] as ColumnKind]);
  const mapRow = (record: StreamRecords[S], raw: unknown): Cell[] => {
    const source = record as unknown as Record<string, unknown>;
    const out: Cell[] = new Array<Cell>(names.length + 1);
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      out[i] = (converters[i] as Convert)(source[name], name);
    }
    if (raw == null || typeof raw !== 'object') throw new RowMappingError('raw', 'must be the record object');
    out[names.length] = raw;
    return out;
  };
  return Object.freeze({ stream, table: stream, columns: Object.freeze(columns), hasAudio, mapRow });
}

/** Every stream's table spec. */
export const STREAM_TABLES: { readonly [S in StreamName]: StreamTableSpec<S> } = {
  cdrs: defineStreamTable('cdrs', cdrFields),
  recordings: defineStreamTable('recordings', recordingFields, true),
  voicemessages: defineStreamTable('voicemessages', voicemessageFields, true),
  sms: defineStreamTable('sms', smsFields),
  faxes: defineStreamTable('faxes', faxFields),
  chats: defineStreamTable('chats', chatFields),
  msdrs: defineStreamTable('msdrs', msdrFields),
  contacts: defineStreamTable('contacts', contactFields),
  users: defineStreamTable('users', userFields),
  queues: defineStreamTable('queues', queueFields),
  ring_groups: defineStreamTable('ring_groups', ringGroupFields),
  report_schedules: defineStreamTable('report_schedules', reportScheduleFields),
  callmeback_cdrs: defineStreamTable('callmeback_cdrs', callMeBackFields),
  callmeback_visitors: defineStreamTable('callmeback_visitors', callMeBackFields),
};

/** The table spec of one stream; throws for a name that is not a stream (e.g. from CLI input). */
export function streamTable<S extends StreamName>(stream: S): StreamTableSpec<S> {
  const spec = (STREAM_TABLES as Record<string, StreamTableSpec | undefined>)[stream];
  if (!spec) throw new Error(`Unknown warehouse stream: ${String(stream)}`);
  return spec as StreamTableSpec<S>;
}

/** Whether a string names a stream. */
export function isStreamName(name: string): name is StreamName {
  return (STREAM_NAMES as readonly string[]).includes(name);
}
