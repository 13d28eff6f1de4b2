// Google Tasks API v1 (https://developers.google.com/workspace/tasks/reference/rest) for tests: the
// tasklists.list/insert and tasks.list/insert/get/patch endpoints callsync calls, each user's lists
// kept apart (the user is the bearer token's subject), with Google's validation and error shapes.
// `users/@me` is the authenticated user (tasklists.list: "Returns all the authenticated user's task
// lists"): a service account's token reaches its own lists, which no person can open, and a token
// issued with domain-wide delegation (`sub`, https://developers.google.com/identity/protocols/oauth2/service-account#delegatingauthority)
// reaches that user's lists. Checked in test/unit/fake-google-oauth.test.ts ("makes a token with `sub` act as that user").
import { GoogleApiError } from './api-error';
import type { HostRequest, RouteHost } from './route-host';

export interface FakeTask {
  kind: 'tasks#task';
  id: string;
  etag: string;
  title: string;
  updated: string;
  selfLink: string;
  position: string;
  notes?: string;
  status: 'needsAction' | 'completed';
  due?: string;
  completed?: string;
  deleted?: boolean;
  hidden?: boolean;
}

export interface FakeTasklist {
  kind: 'tasks#taskList';
  id: string;
  etag: string;
  title: string;
  updated: string;
  selfLink: string;
  tasks: FakeTask[];
}

/** What tests read and change of the local Google Tasks. */
export interface FakeTasks {
  /** Every list of `user` (the token's subject), with its tasks. */
  lists(user: string): FakeTasklist[];
  /** Every task of every list of every user. */
  allTasks(): FakeTask[];
}

const NOT_FOUND = 'Requested entity was not found.';

function rfc3339(value: unknown, field: string): string {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)
  ) {
    throw new GoogleApiError(400, `Invalid value for: ${field} is not a valid RFC 3339 date-time`);
  }
  return new Date(value).toISOString();
}

function boolParam(value: unknown, fallback: boolean): boolean {
  return value === undefined ? fallback : value === 'true' || value === true;
}

function page<T>(items: T[], query: { maxResults?: string; pageToken?: string }, max: number) {
  const size = Math.min(Number(query.maxResults ?? max) || max, max);
  const start = Number(query.pageToken ?? 0) || 0;
  const slice = items.slice(start, start + size);
  return {
    items: slice,
    ...(start + size < items.length ? { nextPageToken: String(start + size) } : {}),
  };
}

/** Adds the Tasks routes to `app`; `userOf` names the authenticated user of a request. */
export function registerTasks(app: RouteHost, userOf: (req: HostRequest) => string): FakeTasks {
  const byUser = new Map<string, FakeTasklist[]>();
  let seq = 0;
  const nextId = (prefix: string) => Buffer.from(`${prefix}:${++seq}:${Date.now()}`).toString('base64url');
  const userLists = (user: string) => {
    let lists = byUser.get(user);
    if (!lists) byUser.set(user, (lists = []));
    return lists;
  };
  const listOf = (req: HostRequest, id: string) => {
    const list = userLists(userOf(req)).find(
      (l) => l.id === id || (id === '@default' && l.title === 'My Tasks'),
    );
    if (!list) throw new GoogleApiError(404, NOT_FOUND);
    return list;
  };
  const publicList = ({ tasks: _t, ...l }: FakeTasklist) => l;
  const touch = <T extends { etag: string; updated: string }>(o: T) => {
    o.updated = new Date().toISOString();
    o.etag = `"${nextId('etag')}"`;
  };

  /** Applies writable fields of a task body, validated as Google does. */
  const apply = (task: FakeTask, body: Record<string, unknown>) => {
    if ('title' in body) {
      if (typeof body.title !== 'string' || body.title.length > 1024) {
        throw new GoogleApiError(400, 'Invalid value for: title (at most 1024 characters)');
      }
      task.title = body.title;
    }
    if ('notes' in body) {
      if (body.notes === null) delete task.notes;
      else if (typeof body.notes !== 'string' || body.notes.length > 8192) {
        throw new GoogleApiError(400, 'Invalid value for: notes (at most 8192 characters)');
      } else task.notes = body.notes;
    }
    // Google keeps only the date of `due`.
    if ('due' in body) {
      if (body.due === null) delete task.due;
      else task.due = `${rfc3339(body.due, 'due').slice(0, 10)}T00:00:00.000Z`;
    }
    if ('status' in body) {
      if (body.status !== 'needsAction' && body.status !== 'completed') {
        throw new GoogleApiError(400, 'Invalid value for: status');
      }
      task.status = body.status;
    }
    if ('completed' in body && body.completed !== null) task.completed = rfc3339(body.completed, 'completed');
    if (task.status === 'completed') task.completed ??= new Date().toISOString();
    else delete task.completed;
    touch(task);
  };

  const base = '/tasks/v1';
  app.get(`${base}/users/@me/lists`, async (req) => {
    const lists = userLists(userOf(req)).map(publicList);
    return { kind: 'tasks#taskLists', etag: `"${seq}"`, ...page(lists, req.query as object, 1000) };
  });
  app.post(`${base}/users/@me/lists`, async (req) => {
    const body = (req.body ?? {}) as { title?: unknown };
    if (typeof body.title !== 'string' || body.title.trim() === '' || body.title.length > 1024) {
      throw new GoogleApiError(400, 'Invalid value for: title (required, at most 1024 characters)');
    }
    const lists = userLists(userOf(req));
    if (lists.length >= 2000) throw new GoogleApiError(403, 'Quota of task lists exceeded', 'quotaExceeded');
    const id = nextId('list');
    const list: FakeTasklist = {
      kind: 'tasks#taskList',
      id,
      etag: '',
      title: body.title,
      updated: '',
      selfLink: `${base}/users/@me/lists/${id}`,
      tasks: [],
    };
    touch(list);
    lists.push(list);
    return publicList(list);
  });
  app.get(`${base}/lists/:tasklist/tasks`, async (req) => {
    const list = listOf(req, (req.params as { tasklist: string }).tasklist);
    const q = req.query as Record<string, string | undefined>;
    const showCompleted = boolParam(q.showCompleted, true);
    const showHidden = boolParam(q.showHidden, false);
    const showDeleted = boolParam(q.showDeleted, false);
    const visible = list.tasks.filter(
      (t) =>
        (showDeleted || !t.deleted) &&
        (showHidden || !t.hidden) &&
        (showCompleted || t.status !== 'completed'),
    );
    return { kind: 'tasks#tasks', etag: `"${seq}"`, ...page(visible, q, 100) };
  });
  app.post(`${base}/lists/:tasklist/tasks`, async (req) => {
    const list = listOf(req, (req.params as { tasklist: string }).tasklist);
    const id = nextId('task');
    const task: FakeTask = {
      kind: 'tasks#task',
      id,
      etag: '',
      title: '',
      updated: '',
      selfLink: `${base}/lists/${list.id}/tasks/${id}`,
      position: String(list.tasks.length).padStart(20, '0'),
      status: 'needsAction',
    };
    apply(task, (req.body ?? {}) as Record<string, unknown>);
    list.tasks.push(task);
    return task;
  });
  const taskOf = (req: HostRequest) => {
    const { tasklist, task } = req.params as { tasklist: string; task: string };
    const found = listOf(req, tasklist).tasks.find((t) => t.id === task);
    if (!found || found.deleted) throw new GoogleApiError(404, NOT_FOUND);
    return found;
  };
  app.get(`${base}/lists/:tasklist/tasks/:task`, async (req) => taskOf(req));
  app.patch(`${base}/lists/:tasklist/tasks/:task`, async (req) => {
    const task = taskOf(req);
    const copy = structuredClone(task);
    apply(copy, (req.body ?? {}) as Record<string, unknown>);
    Object.assign(task, copy);
    if (!('completed' in copy)) delete task.completed;
    return task;
  });
  app.delete(`${base}/lists/:tasklist/tasks/:task`, async (req) => {
    const task = taskOf(req);
    const list = listOf(req, (req.params as { tasklist: string }).tasklist);
    list.tasks.splice(list.tasks.indexOf(task), 1);
    return undefined;
  });

  return {
    lists: (user) => userLists(user),
    allTasks: () => [...byUser.values()].flat().flatMap((l) => l.tasks),
  };
}
