// The custom fields of Salesforce contact sync, made by callsync itself (as HubSpot's property is):
// on an org without them, the contact book's prepare creates Callsync_Contact__c and
// Callsync_Deleted__c on Contact and Lead through the Tooling API and grants them to the integration
// user through callsync's permission set; it does nothing when all is in place, grants fields an
// admin made without access, and without setup rights stops with a message naming the fields and
// Salesforce's refusal. The contact sync test (contact-sync-salesforce) runs it through the worker.
import { SalesforceConnector, salesforceConfigSchema } from '../../connectors/salesforce';
import { PERMISSION_SET } from '../../connectors/salesforce/custom-fields';
import { CrmError } from '../../connectors/crm/errors';
import { emptyState } from '../../sync/contacts/model';
import {
  startFakeSalesforce,
  type FakeSalesforce,
  type FakeSalesforceOptions,
} from '../fakes/salesforce-server';

const FIELDS = [
  'Contact.Callsync_Contact__c',
  'Contact.Callsync_Deleted__c',
  'Lead.Callsync_Contact__c',
  'Lead.Callsync_Deleted__c',
];

const person = (lastName: string) => ({ ...emptyState(), lastName, phone: '+442079460101' });

let fake: FakeSalesforce | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function org(opts: FakeSalesforceOptions = {}) {
  fake = await startFakeSalesforce(opts);
  const f = fake;
  const book = () =>
    new SalesforceConnector(
      salesforceConfigSchema.parse({
        type: 'salesforce',
        instanceUrl: f.url,
        accessToken: f.token,
        apiVersion: f.version,
        requestsPerSecond: 50,
      }),
    ).contactBook({ country: 'GB', createAs: 'contact' });
  /** Setup writes: Tooling API creates and writes of the permission objects. */
  const setupWrites = () =>
    f.requests.filter(
      (r) =>
        r.method !== 'GET' &&
        /\/tooling\/|\/sobjects\/(PermissionSet|FieldPermissions|PermissionSetAssignment)\b/.test(r.path),
    );
  return { fake: f, book, setupWrites };
}

describe('Salesforce custom fields for contact sync', () => {
  it('creates the fields on an org without them and grants them to the integration user, once', async () => {
    const { fake, book, setupWrites } = await org();
    // Before: Salesforce refuses the link key as a column it does not know.
    const early = await book().create([{ linkKey: 'acme:1', state: person('Early') }]);
    expect(early.rejected.get('acme:1')).toMatch(/INVALID_FIELD.*Callsync_Contact__c/);

    await book().prepare();
    expect(fake.customFields()).toEqual(FIELDS);
    const [set] = fake.records('PermissionSet');
    expect(set?.fields).toMatchObject({ Name: PERMISSION_SET });
    expect(
      fake
        .records('FieldPermissions')
        .map((r) => [r.fields.Field, r.fields.ParentId, r.fields.PermissionsRead, r.fields.PermissionsEdit])
        .sort(),
    ).toEqual(FIELDS.map((f) => [f, set!.Id, true, true]));
    expect(fake.records('PermissionSetAssignment').map((r) => r.fields)).toEqual([
      { PermissionSetId: set!.Id, AssigneeId: fake.apiUserId },
    ]);
    // The fields are usable now: a Contact created with its link key reads it back.
    const created = await book().create([{ linkKey: 'acme:1', state: person('Linked') }]);
    expect(created.rejected.size).toBe(0);
    expect(fake.records('Contact').map((r) => r.fields.Callsync_Contact__c)).toEqual(['acme:1']);

    // A worker that starts again finds everything in place and writes nothing.
    const before = setupWrites().length;
    expect(before).toBe(4 + 1 + 4 + 1);
    await book().prepare();
    expect(setupWrites()).toHaveLength(before);
  });

  it('grants fields an admin created without giving the integration user access', async () => {
    const { fake, book } = await org();
    // The admin made the fields (Setup → Object Manager) but no profile or permission set grants them.
    const admin = await book()
      .prepare()
      .then(() => fake.customFields());
    expect(admin).toEqual(FIELDS);
    for (const r of fake.records('FieldPermissions')) fake.edit(r.Id, { PermissionsEdit: false });
    const hidden = await book().create([{ linkKey: 'acme:2', state: person('Hidden') }]);
    expect(hidden.rejected.get('acme:2')).toMatch(/Callsync_Contact__c/);
    await book().prepare();
    expect(fake.records('FieldPermissions').every((r) => r.fields.PermissionsEdit === true)).toBe(true);
    expect(fake.records('FieldPermissions')).toHaveLength(4);
    expect(fake.records('PermissionSetAssignment')).toHaveLength(1);
  });

  it('without setup rights, names the fields to add and why callsync could not', async () => {
    const { fake, book } = await org({ setupAccess: false });
    const failure = await book()
      .prepare()
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(failure).toBeInstanceOf(CrmError);
    const err = failure as CrmError;
    expect(err.retryable).toBe(false);
    expect(err.message).toContain(
      'Contact.Callsync_Contact__c, Contact.Callsync_Deleted__c, Lead.Callsync_Contact__c',
    );
    expect(err.message).toMatch(/Text 255, External ID/);
    expect(err.message).toMatch(/callsync could not do it itself: .*insufficient access/i);
    expect(fake.customFields()).toEqual([]);
  });

  it('leaves an org set up by an admin as it is', async () => {
    const { book, setupWrites } = await org({ callsyncFields: 'granted' });
    await book().prepare();
    expect(setupWrites()).toEqual([]);
  });
});
