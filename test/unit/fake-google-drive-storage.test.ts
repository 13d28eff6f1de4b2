// The local Drive's storage rules (test/fakes/google/drive.ts), as Google documents them: a service
// account owns nothing in a My Drive (403 storageQuotaExceeded), shared drives work for callers that
// support them (supportsAllDrives, driveId), and a delegated user creates what that user owns.
import type { AuthClient } from 'google-auth-library';
import { googleAuthClient } from '../../connectors/google/credentials';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';

let google: FakeGoogle;
let serviceAccount: AuthClient;
let ann: AuthClient;
const SCOPES = ['https://www.googleapis.com/auth/drive'];

beforeAll(async () => {
  google = await startFakeGoogle();
  google.drive.addFolder('shared', { sharedDrive: 'drive-1' });
  google.drive.addFolder('ann-folder', { myDriveOf: 'ann@acme.example' });
  serviceAccount = await googleAuthClient(
    { serviceAccountJson: google.serviceAccountJson, selfSignedJwt: false },
    SCOPES,
  );
  ann = await googleAuthClient(
    { serviceAccountJson: google.serviceAccountJson, selfSignedJwt: false, subject: 'ann@acme.example' },
    SCOPES,
  );
});
afterAll(() => google.close());

/** A Drive request's status and JSON body, whatever the status. */
async function call(auth: AuthClient, method: 'GET' | 'POST', path: string, data?: unknown) {
  const res = await auth.request<Record<string, unknown>>({
    url: `${google.rootUrl}${path}`,
    method,
    ...(data === undefined ? {} : { data }),
    validateStatus: () => true,
  });
  return { status: res.status, body: res.data };
}

const folder = (parent?: string) => ({
  name: 'x',
  mimeType: 'application/vnd.google-apps.folder',
  ...(parent ? { parents: [parent] } : {}),
});

describe('the local Drive: where files may be created', () => {
  it('refuses a service account an item in a My Drive, shared with it or its own, in Google’s shape', async () => {
    for (const body of [folder('ann-folder'), folder()]) {
      const res = await call(serviceAccount, 'POST', 'drive/v3/files?supportsAllDrives=true', body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        error: {
          code: 403,
          message: expect.stringContaining('Service Accounts do not have storage quota') as unknown,
          errors: [{ domain: 'usageLimits', reason: 'storageQuotaExceeded' }],
        },
      });
    }
    // A resumable upload is refused when its session is opened, not after the bytes.
    const session = await serviceAccount.request({
      url: `${google.rootUrl}upload/drive/v3/files?uploadType=resumable`,
      method: 'POST',
      headers: { 'X-Upload-Content-Length': '10' },
      data: { name: 'a.mp3', parents: ['ann-folder'] },
      validateStatus: () => true,
    });
    expect(session.status).toBe(403);
    expect(google.drive.files.size).toBe(0);
  });

  it('creates in a shared drive only with supportsAllDrives, and answers the driveId', async () => {
    const without = await call(serviceAccount, 'POST', 'drive/v3/files', folder('shared'));
    expect(without).toMatchObject({ status: 404, body: { error: { message: 'File not found: shared.' } } });
    const made = await call(
      serviceAccount,
      'POST',
      'drive/v3/files?supportsAllDrives=true',
      folder('shared'),
    );
    expect(made).toMatchObject({ status: 200, body: { driveId: 'drive-1', parents: ['shared'] } });
    // Seen by get only with supportsAllDrives; by list only with includeItemsFromAllDrives as well.
    expect((await call(serviceAccount, 'GET', 'drive/v3/files/shared')).status).toBe(404);
    const got = await call(serviceAccount, 'GET', 'drive/v3/files/shared?supportsAllDrives=true');
    expect(got.body).toMatchObject({ id: 'shared', driveId: 'drive-1' });
    const q = encodeURIComponent("'shared' in parents");
    const listed = async (extra: string) =>
      ((await call(serviceAccount, 'GET', `drive/v3/files?q=${q}${extra}`)).body.files as unknown[]).length;
    expect(await listed('')).toBe(0);
    expect(await listed('&supportsAllDrives=true&includeItemsFromAllDrives=true')).toBe(1);
    // A My Drive folder answers no driveId: how callsync tells the two apart.
    const mine = await call(serviceAccount, 'GET', 'drive/v3/files/ann-folder?supportsAllDrives=true');
    expect(mine.body.driveId).toBeUndefined();
  });

  it('lets a delegated user create in a My Drive folder, owned by that user', async () => {
    const res = await call(ann, 'POST', 'drive/v3/files', folder('ann-folder'));
    expect(res.status).toBe(200);
    expect(google.drive.files.get(String(res.body.id))).toMatchObject({ owner: 'ann@acme.example' });
  });
});
