// The dashboard's users, sessions and failed log-ins (server/dashboard/auth.ts decides; this stores).
import type { Kysely } from 'kysely';
import type { Database, DashboardSessionRow, DashboardUserRow } from '../../tables';

export type DashboardRole = 'admin' | 'viewer';

export interface NewDashboardUser {
  username: string;
  role: DashboardRole;
  accounts: readonly string[];
  passwordHash: string;
}

/** Adds a user; false when the username is taken. */
export async function addDashboardUser(db: Kysely<Database>, u: NewDashboardUser): Promise<boolean> {
  const added = await db
    .insertInto('dashboard_users')
    .values({ username: u.username, role: u.role, accounts: [...u.accounts], password_hash: u.passwordHash })
    .onConflict((oc) => oc.column('username').doNothing())
    .returning('username')
    .executeTakeFirst();
  return added !== undefined;
}

export async function getDashboardUser(
  db: Kysely<Database>,
  username: string,
): Promise<DashboardUserRow | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function listDashboardUsers(db: Kysely<Database>) {
  return db
    .selectFrom('dashboard_users')
    .select(['username', 'role', 'accounts', 'created_at', 'password_changed_at'])
    .orderBy('username')
    .execute();
}

/** Sets a user's password and ends every session they have; false when there is no such user. */
export async function setDashboardPassword(
  db: Kysely<Database>,
  username: string,
  passwordHash: string,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const done = await tx
      .updateTable('dashboard_users')
      .set({ password_hash: passwordHash, password_changed_at: new Date() })
      .where('username', '=', username)
      .executeTakeFirst();
    await tx.deleteFrom('dashboard_sessions').where('username', '=', username).execute();
    return done.numUpdatedRows > 0n;
  });
}

/** Removes a user and their sessions; false when there is no such user. */
export async function removeDashboardUser(db: Kysely<Database>, username: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('dashboard_sessions').where('username', '=', username).execute();
    const done = await tx.deleteFrom('dashboard_users').where('username', '=', username).executeTakeFirst();
    return done.numDeletedRows > 0n;
  });
}

export interface NewDashboardSession {
  /** sha256 of the cookie's token. */
  id: string;
  username: string;
  credential: string | null;
  csrfToken: string;
  expiresAt: Date;
}

export async function createDashboardSession(db: Kysely<Database>, s: NewDashboardSession): Promise<void> {
  await db
    .insertInto('dashboard_sessions')
    .values({
      id: s.id,
      username: s.username,
      credential: s.credential,
      csrf_token: s.csrfToken,
      expires_at: s.expiresAt,
    })
    .execute();
  // Expired sessions go as new ones come: the table stays the size of the live ones.
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<=', new Date()).execute();
}

/** An unexpired session by id. */
export async function findDashboardSession(
  db: Kysely<Database>,
  id: string,
  now = new Date(),
): Promise<DashboardSessionRow | undefined> {
  return db
    .selectFrom('dashboard_sessions')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteDashboardSession(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id', '=', id).execute();
}

export interface LoginKey {
  scope: 'address' | 'user';
  key: string;
}

/** The latest lockout among these keys still in force, if any. */
export async function loginLockedUntil(
  db: Kysely<Database>,
  keys: readonly LoginKey[],
  now = new Date(),
): Promise<{ scope: string; until: Date } | undefined> {
  if (keys.length === 0) return undefined;
  const row = await db
    .selectFrom('dashboard_login_failures')
    .select(['scope', 'locked_until'])
    .where((eb) => eb.or(keys.map((k) => eb.and([eb('scope', '=', k.scope), eb('key', '=', k.key)]))))
    .where('locked_until', '>', now)
    .orderBy('locked_until', 'desc')
    .executeTakeFirst();
  return row?.locked_until ? { scope: row.scope, until: row.locked_until } : undefined;
}

export interface LockoutPolicy {
  /** Failures within `windowMs` that lock the key. */
  maxFailures: number;
  windowMs: number;
  /** How long a lockout lasts. */
  lockMs: number;
}

/** Counts a failed log-in against a key; returns when it is locked until, if this failure locked it. */
export async function recordLoginFailure(
  db: Kysely<Database>,
  k: LoginKey,
  policy: LockoutPolicy,
  now = new Date(),
): Promise<Date | undefined> {
  return db.transaction().execute(async (tx) => {
    await tx
      .insertInto('dashboard_login_failures')
      .values({ scope: k.scope, key: k.key, failures: 0, first_at: now })
      .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
      .execute();
    const row = await tx
      .selectFrom('dashboard_login_failures')
      .selectAll()
      .where('scope', '=', k.scope)
      .where('key', '=', k.key)
      .forUpdate()
      .executeTakeFirstOrThrow();
    // A window that has passed, or a lockout that has ended, starts the count again.
    const fresh =
      row.first_at.getTime() <= now.getTime() - policy.windowMs ||
      (row.locked_until !== null && row.locked_until <= now);
    const failures = fresh ? 1 : row.failures + 1;
    const lockedUntil = failures >= policy.maxFailures ? new Date(now.getTime() + policy.lockMs) : null;
    await tx
      .updateTable('dashboard_login_failures')
      .set({ failures, first_at: fresh ? now : row.first_at, locked_until: lockedUntil })
      .where('scope', '=', k.scope)
      .where('key', '=', k.key)
      .execute();
    // Counts whose window and lockout have both passed go (they hold addresses; nothing reads them).
    await tx
      .deleteFrom('dashboard_login_failures')
      .where('first_at', '<=', new Date(now.getTime() - policy.windowMs))
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .where((eb) => eb.not(eb.and([eb('scope', '=', k.scope), eb('key', '=', k.key)])))
      .execute();
    return lockedUntil ?? undefined;
  });
}

/** Forgets a key's failures (after a successful log-in). */
export async function clearLoginFailures(db: Kysely<Database>, k: LoginKey): Promise<void> {
  await db
    .deleteFrom('dashboard_login_failures')
    .where('scope', '=', k.scope)
    .where('key', '=', k.key)
    .execute();
}
