// Column kinds of the warehouse's stream tables, and the types derived from them. Each stream table
// declares one kind per field of its zod schema; the compiler checks that every schema field has a
// column of a fitting kind, and the kysely row types are derived from the same declaration, so the
// schema, the row mapper and the table types cannot drift apart. (Migrations stay frozen DDL.)
import type { ColumnType, Generated } from 'kysely';

/**
 * How a field is stored. Integers are bigint: the platform's ranges are not specified and a value
 * that overflows a column would fail a whole COPY page. Money (rate, charge) is numeric(12,4).
 * Code fields the schemas keep as "integer or string" are text, so no sent value is lost.
 */
export type ColumnKind = 'bigint' | 'double' | 'numeric' | 'text' | 'boolean' | 'timestamptz' | 'jsonb';

/** The PostgreSQL type of each kind, as migrations write it and information_schema reports it. */
export const PG_TYPES: Readonly<Record<ColumnKind, string>> = {
  bigint: 'bigint',
  double: 'double precision',
  numeric: 'numeric(12,4)',
  text: 'text',
  boolean: 'boolean',
  timestamptz: 'timestamptz',
  jsonb: 'jsonb',
};

/** A JSON value as read back from a jsonb column. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Keys a zod `looseObject` output declares (its index signature for extra fields dropped). */
export type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };

/** Kinds that fit a field of TypeScript type T (the parsed zod output). */
export type KindFor<T> = [unknown] extends [T]
  ? 'jsonb'
  : [NonNullable<T>] extends [boolean]
    ? 'boolean'
    : [NonNullable<T>] extends [number]
      ? 'bigint' | 'double' | 'numeric'
      : [NonNullable<T>] extends [string]
        ? 'text' | 'timestamptz'
        : [NonNullable<T>] extends [string | number]
          ? 'text'
          : 'jsonb';

/** One column kind for every field of record type R, and no others (checked with `satisfies`). */
export type FieldKinds<R> = { readonly [K in KnownKeys<R>]-?: KindFor<R[K]> };

type Cell<K extends ColumnKind> = K extends 'bigint' | 'double' | 'numeric'
  ? number | null
  : K extends 'text'
    ? string | null
    : K extends 'boolean'
      ? boolean | null
      : K extends 'timestamptz'
        ? ColumnType<Date | null, Date | string | null, Date | string | null>
        : ColumnType<JsonValue | null, string | null, string | null>;

/** Columns every stream table has besides its fields. */
export interface StreamTableBase {
  /** The platform account the record came from (several accounts can share a warehouse). */
  account: string;
  id: number;
  /** The record as received, extra fields included. */
  raw: ColumnType<JsonValue, string, string>;
  /** When the row was first written or its content last changed. */
  synced_at: Generated<Date>;
}

/** Columns of tables whose rows have an audio file archived to the object store. */
export interface AudioColumns {
  audio_uri: string | null;
  audio_bytes: number | null;
  audio_archived_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  /** MD5 (hex) of the archived file, as the object store reported it and the download hashed to. */
  audio_md5: string | null;
  /** When the platform answered that the audio is gone (404/410); such rows are not asked for again. */
  audio_lost_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  /** Why the audio counts as lost (the platform's status and message). */
  audio_lost_reason: string | null;
  /** The first 404/410 callsync saw for the audio; it is asked for again until archive.missingAudioGrace. */
  audio_missing_since: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

type Flatten<T> = { [K in keyof T]: T[K] };

/** The kysely table type of a stream table with the given field kinds (int8 and numeric read as numbers). */
export type StreamTable<F extends Readonly<Record<string, ColumnKind>>> = Flatten<
  StreamTableBase & { -readonly [K in Exclude<keyof F, 'id'>]: Cell<F[K]> }
>;
