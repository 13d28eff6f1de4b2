// The Dataverse tables the Dynamics 365 test server holds, with the columns callsync reads and
// writes as the table references document them (type, maximum length, valid state and status
// values): contact (…/reference/entities/contact), phonecall (…/reference/entities/phonecall), task
// (…/reference/entities/task) and systemuser (…/reference/entities/systemuser), under
// https://learn.microsoft.com/power-apps/developer/data-platform/reference/entities/.
export type ColumnType = 'string' | 'memo' | 'int' | 'bool' | 'datetime' | 'guid';

export interface Column {
  type: ColumnType;
  /** MaxLength of a string or memo column. */
  max?: number;
  /** Set by Dataverse only (IsValidForCreate and IsValidForUpdate false). */
  readOnly?: boolean;
}

export interface Table {
  /** Entity set name (the URL segment) and the logical name (the OData type). */
  set: string;
  logical: string;
  primaryKey: string;
  columns: Record<string, Column>;
  /** Single-valued navigation properties that take `@odata.bind`, and the lookup column each sets. */
  binds: Record<string, { target: string; column: string }>;
  /** statecode → the statuscode values valid with it. */
  states?: Record<number, number[]>;
  /** Activities: a completed or canceled one is read-only (the statecode column's description). */
  readOnlyWhenClosed?: boolean;
}

const str = (max: number): Column => ({ type: 'string', max });
const memo = (max: number): Column => ({ type: 'memo', max });
const ro = (type: ColumnType): Column => ({ type, readOnly: true });

const common = {
  createdon: ro('datetime'),
  modifiedon: ro('datetime'),
  _ownerid_value: ro('guid'),
  statecode: { type: 'int' } as Column,
  statuscode: { type: 'int' } as Column,
};

const activity = {
  ...common,
  activityid: ro('guid'),
  subject: str(200),
  description: memo(2000),
  category: str(250),
  subcategory: str(250),
  actualstart: { type: 'datetime' } as Column,
  actualend: { type: 'datetime' } as Column,
  actualdurationminutes: { type: 'int' } as Column,
  scheduledend: { type: 'datetime' } as Column,
  prioritycode: { type: 'int' } as Column,
  _regardingobjectid_value: ro('guid'),
};

export const TABLES: Record<string, Table> = {
  contacts: {
    set: 'contacts',
    logical: 'contact',
    primaryKey: 'contactid',
    columns: {
      ...common,
      contactid: ro('guid'),
      firstname: str(50),
      lastname: str(50),
      fullname: ro('string'),
      telephone1: str(50),
      telephone2: str(50),
      mobilephone: str(50),
      emailaddress1: str(100),
      // Description (Memo, MaxLength 2,000): the contact's free text, callsync's contact notes.
      description: memo(2000),
    },
    binds: { ownerid: { target: 'systemusers', column: '_ownerid_value' } },
    // Contact: Active 0 (Active 1), Inactive 1 (Inactive 2).
    states: { 0: [1], 1: [2] },
  },
  phonecalls: {
    set: 'phonecalls',
    logical: 'phonecall',
    primaryKey: 'activityid',
    columns: {
      ...activity,
      phonenumber: str(200),
      directioncode: { type: 'bool' },
      leftvoicemail: { type: 'bool' },
    },
    binds: {
      ownerid: { target: 'systemusers', column: '_ownerid_value' },
      regardingobjectid_contact_phonecall: { target: 'contacts', column: '_regardingobjectid_value' },
    },
    // Phone call: Open 0 (Open 1), Completed 1 (Made 2, Received 4), Canceled 2 (Canceled 3).
    states: { 0: [1], 1: [2, 4], 2: [3] },
    readOnlyWhenClosed: true,
  },
  tasks: {
    set: 'tasks',
    logical: 'task',
    primaryKey: 'activityid',
    columns: { ...activity },
    binds: {
      ownerid: { target: 'systemusers', column: '_ownerid_value' },
      regardingobjectid_contact_task: { target: 'contacts', column: '_regardingobjectid_value' },
    },
    // Task: Open 0 (Not Started 2, In Progress 3, Waiting 4, Deferred 7), Completed 1 (5), Canceled 2 (6).
    states: { 0: [2, 3, 4, 7], 1: [5], 2: [6] },
    readOnlyWhenClosed: true,
  },
  systemusers: {
    set: 'systemusers',
    logical: 'systemuser',
    primaryKey: 'systemuserid',
    columns: {
      systemuserid: ro('guid'),
      internalemailaddress: ro('string'),
      fullname: ro('string'),
      isdisabled: ro('bool'),
      applicationid: ro('guid'),
    },
    binds: {},
  },
};

/** The first statuscode of a state (the default when a write gives statecode alone). */
export function defaultStatus(table: Table, state: number): number | undefined {
  return table.states?.[state]?.[0];
}

/** Checks a value against its column's type; returns the problem, or null. */
export function valueProblem(name: string, column: Column, value: unknown): string | null {
  if (value === null) return null;
  switch (column.type) {
    case 'string':
    case 'memo':
      if (typeof value !== 'string') return `the value of '${name}' must be a string`;
      if (column.max !== undefined && value.length > column.max)
        return `length of '${name}' exceeded ${column.max}`;
      return null;
    case 'int':
      return Number.isInteger(value) ? null : `the value of '${name}' must be an integer`;
    case 'bool':
      return typeof value === 'boolean' ? null : `the value of '${name}' must be a boolean`;
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? null : `'${name}' is not a date`;
    case 'guid':
      return typeof value === 'string' ? null : `'${name}' is not a GUID`;
  }
}
