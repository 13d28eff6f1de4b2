// The dashboard's users, their server-side sessions, and the failed log-ins behind the lockout.
import type { ColumnType, Generated, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A person who may log in to the dashboard: a role and the accounts they may see. */
export interface DashboardUsersTable {
  username: string;
  /** admin | viewer */
  role: string;
  /** Account names a viewer may see (an admin sees every account). */
  accounts: ColumnType<string[], string[] | undefined, string[]>;
  /** scrypt$N$r$p$<salt>$<hash>, never the password. */
  password_hash: string;
  created_at: Generated<Date>;
  password_changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type DashboardUserRow = Selectable<DashboardUsersTable>;

/** A logged-in browser: the sha256 of its cookie's token, whose it is, and its CSRF token. */
export interface DashboardSessionsTable {
  id: string;
  username: string;
  /** A digest of the config password for the bootstrap admin's sessions (null for stored users). */
  credential: string | null;
  csrf_token: string;
  created_at: Generated<Date>;
  expires_at: Timestamp;
}
export type DashboardSessionRow = Selectable<DashboardSessionsTable>;

/** Failed log-ins of one address or one username since `first_at`, and the lockout they caused. */
export interface DashboardLoginFailuresTable {
  /** address | user */
  scope: string;
  key: string;
  failures: number;
  first_at: Timestamp;
  locked_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}
