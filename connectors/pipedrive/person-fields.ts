// The custom person fields the contact sync writes: the link key (the platform contact callsync
// created the person for) and the deleted mark. Pipedrive names a custom field's value in a person by
// a generated 40-character hash (its `key`), so the fields are found by their name among the person
// fields (GET /v1/personFields, paged by start and limit) and created when missing (POST
// /v1/personFields, a `varchar` field: text up to 255 characters).
// https://developers.pipedrive.com/docs/api/v1/PersonFields
// https://pipedrive.readme.io/docs/adding-a-new-custom-field
import { CrmError } from '../crm/errors';
import type { PipedriveClient } from './client';
import { DESTINATION } from './errors';
import { parseAnswer, v1PageOf, v1Pages } from './responses';
import { z } from 'zod';

/** The names the fields are found by (and created with). */
export const LINK_FIELD = 'callsync contact';
export const DELETED_FIELD = 'callsync deleted';

/** Largest page of the v1 person field list. */
const FIELD_PAGE = 500;

const fieldSchema = z.object({ id: z.number().int(), key: z.string(), name: z.string().nullish() });

/** The hash keys of callsync's person fields. */
export interface PersonFieldKeys {
  link: string;
  deleted: string;
}

/** The keys of the two fields, each created once when the company has no field of its name. */
export async function ensurePersonFields(client: PipedriveClient): Promise<PersonFieldKeys> {
  const byName = new Map<string, string>();
  const pages = v1Pages(async (start) =>
    parseAnswer(
      v1PageOf(fieldSchema),
      await client.call('list person fields', (a) =>
        a.personFields.getPersonFields({ start, limit: FIELD_PAGE }),
      ),
      'list person fields',
    ),
  );
  for await (const fields of pages)
    for (const f of fields) if (f.name && !byName.has(f.name)) byName.set(f.name, f.key);
  const keyOf = async (name: string): Promise<string> => {
    const found = byName.get(name);
    if (found) return found;
    let body: unknown;
    try {
      body = await client.call('create person field', (a) =>
        a.personFields.addPersonField({ CreateFieldRequest: { name, field_type: 'varchar' } }),
      );
    } catch (err) {
      if (!(err instanceof CrmError) || (err.status !== 401 && err.status !== 403)) throw err;
      // Adding fields takes the contact-fields:full scope (or an admin): say what to grant or add.
      throw new CrmError({
        destination: DESTINATION,
        status: err.status,
        code: err.code,
        message: `contact sync: Pipedrive refused to add the person field "${name}" (${err.status}): grant the app the contact-fields:full scope (the API token's user the right to add custom fields), or add a text field of that name by hand`,
        retryable: false,
      });
    }
    return parseAnswer(z.object({ data: fieldSchema }), body, 'create person field').data.key;
  };
  return { link: await keyOf(LINK_FIELD), deleted: await keyOf(DELETED_FIELD) };
}
