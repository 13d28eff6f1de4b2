// The local Google (server.ts, router.ts) with the Tasks, Speech-to-Text and Natural Language
// modules of callsync's Google apps destinations added, as their tests use it: the request log, the
// state of each module, and injected faults by method and path prefix.
import { bearerSubject, routeHost } from './route-host';
import { registerLanguage, type FakeLanguage } from './language';
import { startFakeGoogle, type FakeGoogle } from './server';
import { registerSpeech, type FakeSpeech } from './speech';
import { registerTasks, type FakeTasks } from './tasks';

export interface FakeGoogleApps {
  /** Origin to give the clients (rootUrl / endpoints), without a trailing slash. */
  url: string;
  /** The service account whose tokens the server accepts. */
  serviceAccount: { clientEmail: string; json: string };
  requests: FakeGoogle['requests'];
  tasks: FakeTasks;
  speech: FakeSpeech;
  language: FakeLanguage;
  /** The next `count` requests whose method matches and whose path starts with `pathPrefix` get `status`. */
  failNext(method: string, pathPrefix: string, status: number, count?: number): void;
  /** Drive and Sheets, when a test needs them too. */
  google: FakeGoogle;
  close(): Promise<void>;
}

const CLIENT_EMAIL = 'callsync-test@callsync-test.iam.gserviceaccount.com';

/** Starts the local Google with the apps modules on a free port of 127.0.0.1. */
export async function startFakeGoogleApps(): Promise<FakeGoogleApps> {
  let tasks: FakeTasks | undefined;
  let speech: FakeSpeech | undefined;
  let language: FakeLanguage | undefined;
  const google = await startFakeGoogle({
    clientEmail: CLIENT_EMAIL,
    modules: [
      (router) => {
        const host = routeHost(router);
        tasks = registerTasks(host, bearerSubject);
        speech = registerSpeech(host);
        language = registerLanguage(host);
      },
    ],
  });
  return {
    url: google.rootUrl.replace(/\/$/, ''),
    serviceAccount: { clientEmail: CLIENT_EMAIL, json: google.serviceAccountJson },
    requests: google.requests,
    tasks: tasks!,
    speech: speech!,
    language: language!,
    failNext(method, pathPrefix, status, count = 1) {
      google.failNext(
        method,
        new RegExp(`^${pathPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
        status,
        count,
      );
    },
    google,
    close: () => google.close(),
  };
}
