import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { PlatformClient } from '../../../connectors/platform';
import { dictionarySchema } from '../../../connectors/platform/schemas';
import type { SpecEndpoint } from '../spec-endpoints';

/** What the steps share: the client and ids discovered along the way. */
export interface ContractContext {
  client: PlatformClient;
  admin: { email: string; password: string; user_id: number; api_key: string };
  /** Emulator origin (http://127.0.0.1:port) for control endpoints. */
  origin: string;
  ids: Record<string, number | string>;
  /** An account of the admin's customer with two-factor e-mail codes. */
  twoFactorUser: { email: string; password: string };
  /** A second client that logs in with the admin's e-mail and password (same request recorder). */
  passwordClient(): PlatformClient;
}

/** One spec endpoint exercised through its client method, with assertions on the answer. */
export interface Step {
  endpoint: SpecEndpoint;
  run(ctx: ContractContext): Promise<void>;
}

/** First page of a paginated read. */
export async function firstPage<T>(p: { pages(): AsyncIterable<{ data: T[]; total: number | undefined }> }) {
  for await (const page of p.pages()) return page;
  throw new Error('no page');
}

/** First record of a paginated read, which must exist. */
export async function firstRecord<T>(p: {
  pages(): AsyncIterable<{ data: T[]; total: number | undefined }>;
}) {
  const page = await firstPage(p);
  const record = page.data[0];
  if (record === undefined) throw new Error('empty collection');
  return record;
}

/** Reads a binary stream to a buffer. */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export function idOf(ctx: ContractContext, key: string): number {
  const v = ctx.ids[key];
  if (typeof v !== 'number') throw new Error(`no id recorded for ${key}`);
  return v;
}

/** Parses an answer with the client's response schema; the step fails, naming the issues, when it does not match. */
export function parsed<S extends z.ZodType>(schema: S, answer: unknown): z.output<S> {
  const result = schema.safeParse(answer);
  expect(result.success ? [] : result.error.issues).toEqual([]);
  return result.data as z.output<S>;
}

/** A page's records parsed with the client's record schema; its total counts at least them. */
export function parsedPage<S extends z.ZodType>(
  schema: S,
  page: { data: unknown[]; total: number | undefined },
): z.output<S>[] {
  const data = parsed(z.array(schema), page.data);
  expect(page.total ?? data.length).toBeGreaterThanOrEqual(data.length);
  return data;
}

/** GET …/dictionaries: the client's dictionary schema, holding label tables (code → label). */
const labelTablesSchema = dictionarySchema.pipe(
  z.record(z.string(), z.record(z.string(), z.string().min(1))),
);

/**
 * A dictionaries answer parsed with the client's schema: it has a label table for each of `fields`,
 * and `record` (a resource of the module, read through the client), when given, finds its value of
 * each labelled.
 */
export function expectLabels(answer: unknown, fields: string[], record?: Record<string, unknown>): void {
  const tables = parsed(labelTablesSchema, answer);
  for (const field of fields) {
    expect({ field, codes: Object.keys(tables[field] ?? {}).length > 0 }).toEqual({ field, codes: true });
    if (!record) continue;
    expect(record[field]).not.toBeNull();
    const label = tables[field]?.[String(record[field])];
    expect({ field, label }).toEqual({ field, label: expect.any(String) });
  }
}
