// Requests on up to 100 records at once, as the contact sync sends them through the connector's
// request core (ZohoClient.send: its rate gate, concurrency limit and token renewal): insert, update
// and delete, each record answered on its own in `data[]` (a 400 where every record was refused is
// those answers, not a refusal of the request), and the list of deleted records.
import type { Fields } from './fields';
import { dataOf, type ZohoClient } from './zoho-client';

/**
 * Inserts up to 100 records in one request; answers each record's entry in request order (Zoho's
 * `data[]`: SUCCESS with `details.id`, or the record's own error), one refused not failing the others.
 */
export async function createMany(
  client: ZohoClient,
  module: string,
  records: readonly Fields[],
): Promise<Record<string, unknown>[]> {
  const answer = await client.send(
    `insert into ${module}`,
    (sdk) => {
      const body = new sdk.Record.BodyWrapper();
      body.setData(records.map((f) => client.record(f)));
      return new sdk.Record.RecordOperations(module).createRecords(body, new sdk.HeaderMap());
    },
    true,
  );
  return dataOf(answer);
}

/** Updates up to 100 records (each with its `id`) in one request; each record's entry in order. */
export async function updateMany(
  client: ZohoClient,
  module: string,
  records: readonly { id: string; fields: Fields }[],
): Promise<Record<string, unknown>[]> {
  const answer = await client.send(
    `update in ${module}`,
    (sdk) => {
      const body = new sdk.Record.BodyWrapper();
      body.setData(
        records.map((r) => {
          const rec = client.record(r.fields);
          rec.setId(BigInt(r.id));
          return rec;
        }),
      );
      return new sdk.Record.RecordOperations(module).updateRecords(body, new sdk.HeaderMap());
    },
    true,
  );
  return dataOf(answer);
}

/** Deletes up to 100 records by id in one request; each record's entry. */
export async function deleteMany(
  client: ZohoClient,
  module: string,
  ids: readonly string[],
): Promise<Record<string, unknown>[]> {
  const answer = await client.send(
    `delete from ${module}`,
    async (sdk) => {
      const params = new sdk.ParameterMap();
      await params.add(sdk.Record.DeleteRecordsParam.IDS, ids.join(','));
      return new sdk.Record.RecordOperations(module).deleteRecords(params, new sdk.HeaderMap());
    },
    true,
  );
  return dataOf(answer);
}

/**
 * One page (200) of the records of `module` deleted after `since`, newest first, and whether more
 * follow (get-deleted-records.html: `type=all`, the If-Modified-Since header).
 */
export async function deletedPage(
  client: ZohoClient,
  module: string,
  since: Date,
  page: number,
): Promise<{ rows: Record<string, unknown>[]; more: boolean }> {
  const answer = await client.send(`deleted records of ${module}`, async (sdk) => {
    const params = new sdk.ParameterMap();
    await params.add(sdk.Record.GetDeletedRecordsParam.TYPE, 'all');
    await params.add(sdk.Record.GetDeletedRecordsParam.PAGE, page);
    await params.add(sdk.Record.GetDeletedRecordsParam.PER_PAGE, 200);
    const headers = new sdk.HeaderMap();
    await headers.add(sdk.Record.GetDeletedRecordsHeader.IF_MODIFIED_SINCE, since);
    return new sdk.Record.RecordOperations(module).getDeletedRecords(params, headers);
  });
  const info = (answer.body as { info?: { more_records?: unknown } } | null)?.info;
  return { rows: dataOf(answer), more: info?.more_records === true };
}
