// Writes to the Dynamics 365 test server's tables, checked as Dataverse checks them: unknown columns
// (400 0x0 "Could not find a property named …",
// https://learn.microsoft.com/troubleshoot/power-platform/power-apps/dataverse/web-api-client-errors),
// read-only columns, lengths and types (0x80044331, the table references' MaxLength), statecode with a
// statuscode valid for it, `@odata.bind` to records that exist (404 0x80040217 otherwise), activity
// parties on create (phonecall_activity_parties, participation types Sender 1 and ToRecipient 2:
// https://learn.microsoft.com/power-apps/developer/data-platform/activityparty-entity), and completed
// or canceled activities read-only (0x8004022e) but for their state.
import { randomUUID } from 'node:crypto';
import { defaultStatus, TABLES, valueProblem, type Column, type Table } from './dynamics-tables';
import type { Row } from './dynamics-odata';

/** A Web API error answer: status and the error object of the body. */
export class WebApiFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Party {
  participationtypemask: number;
  partyid: string;
  partyType: 'contacts' | 'systemusers';
}

export type StoredRow = Row & { parties?: Party[] };

const BIND = /(?:^|\/)(contacts|systemusers)\(([0-9a-f-]{36})\)$/i;

export class DataverseTables {
  readonly rows = new Map<string, Map<string, StoredRow>>(Object.keys(TABLES).map((s) => [s, new Map()]));

  /** Columns created through the column definitions API (dynamics-metadata.ts), by entity set: this server's own. */
  readonly custom = new Map<string, Record<string, Column>>();

  table(set: string): Table {
    const t = TABLES[set];
    if (!t) throw new WebApiFault(404, '0x8006088a', `Resource not found for the segment '${set}'.`);
    const custom = this.custom.get(set);
    return custom ? { ...t, columns: { ...t.columns, ...custom } } : t;
  }

  get(set: string, id: string): StoredRow {
    const row = this.rows.get(set)?.get(id.toLowerCase());
    if (!row)
      throw new WebApiFault(404, '0x80040217', `${this.table(set).logical} With Id = ${id} Does Not Exist`);
    return row;
  }

  /** `/contacts(id)` (relative or absolute) → the record's id, which must exist. */
  private resolveBind(target: string, value: unknown): string {
    const m = typeof value === 'string' ? BIND.exec(value) : null;
    if (!m || m[1]!.toLowerCase() !== target)
      throw new WebApiFault(400, '0x80048d19', `Invalid @odata.bind value for ${target}.`);
    return this.get(target, m[2]!).__id as string;
  }

  /** Applies a body's columns and binds to `row`; `creating` allows activity parties. */
  private apply(t: Table, row: StoredRow, body: Record<string, unknown>, creating: boolean): void {
    for (const [key, value] of Object.entries(body)) {
      if (key.endsWith('@odata.bind')) {
        const nav = key.slice(0, -'@odata.bind'.length);
        const bind = t.binds[nav];
        if (!bind)
          throw new WebApiFault(
            400,
            '0x0',
            `An undeclared property '${nav}' which only has property annotations in the payload but no property value was found in the payload.`,
          );
        row[bind.column] = this.resolveBind(bind.target, value);
        continue;
      }
      if (key === 'phonecall_activity_parties' && t.set === 'phonecalls' && creating) {
        row.parties = this.parties(value);
        continue;
      }
      const column = t.columns[key];
      if (!column)
        throw new WebApiFault(
          400,
          '0x0',
          `Could not find a property named '${key}' on type 'Microsoft.Dynamics.CRM.${t.logical}'.`,
        );
      if (column.readOnly) throw new WebApiFault(400, '0x80048d0b', `'${key}' is read-only.`);
      const problem = valueProblem(key, column, value);
      if (problem)
        throw new WebApiFault(
          400,
          '0x80044331',
          `A validation error occurred. The ${problem} (${t.logical}).`,
        );
      row[key] = value;
    }
  }

  private parties(value: unknown): Party[] {
    if (!Array.isArray(value))
      throw new WebApiFault(400, '0x0', 'phonecall_activity_parties must be a collection.');
    return value.map((p: Record<string, unknown>) => {
      const mask = p.participationtypemask;
      // A phone call has a sender and recipients (from and to) only.
      if (mask !== 1 && mask !== 2)
        throw new WebApiFault(
          400,
          '0x80040203',
          `Invalid participationtypemask ${String(mask)} for a phone call.`,
        );
      const contact = p['partyid_contact@odata.bind'];
      const user = p['partyid_systemuser@odata.bind'];
      if ((contact === undefined) === (user === undefined))
        throw new WebApiFault(400, '0x80040203', 'An activity party needs one partyid.');
      const partyType = contact !== undefined ? 'contacts' : 'systemusers';
      return {
        participationtypemask: mask,
        partyType,
        partyid: this.resolveBind(partyType, contact ?? user),
      };
    });
  }

  /**
   * statecode and statuscode: a statuscode must belong to the statecode (given or current); on create
   * statecode is not valid (IsValidForCreate false) and a record starts in its first state, so a
   * statuscode of another state is refused (0x80048408, "… is not a valid status code for state code …").
   */
  private checkState(t: Table, row: StoredRow, body: Record<string, unknown>, creating: boolean): void {
    if (!t.states) return;
    const initial = Number(Object.keys(t.states)[0]);
    const state = creating ? initial : ((body.statecode ?? row.statecode) as number);
    row.statecode = state;
    if (body.statuscode === undefined && (creating || body.statecode !== undefined))
      row.statuscode = defaultStatus(t, state);
    const status = row.statuscode as number;
    if (!t.states[state]?.includes(status))
      throw new WebApiFault(
        400,
        '0x80048408',
        `${status} is not a valid status code for state code ${t.logical}State.${state} on ${t.logical} with Id ${String(row.__id)}.`,
      );
  }

  /** Creates a row; `ownerId` (the calling user) owns it unless the body binds ownerid. */
  create(set: string, body: Record<string, unknown>, ownerId?: string, now = new Date()): StoredRow {
    const t = this.table(set);
    const id = randomUUID();
    const row: StoredRow = {
      __id: id,
      [t.primaryKey]: id,
      createdon: now.toISOString(),
      modifiedon: now.toISOString(),
    };
    if (ownerId && '_ownerid_value' in t.columns) row._ownerid_value = ownerId;
    this.apply(t, row, body, true);
    this.checkState(t, row, body, true);
    this.computed(t, row);
    this.rows.get(set)!.set(id, row);
    return row;
  }

  update(set: string, id: string, body: Record<string, unknown>, now = new Date()): StoredRow {
    const t = this.table(set);
    const current = this.get(set, id);
    const onlyState = Object.keys(body).every((k) => k === 'statecode' || k === 'statuscode');
    if (t.readOnlyWhenClosed && current.statecode !== 0 && !onlyState)
      throw new WebApiFault(400, '0x8004022e', 'The object cannot be updated because it is read-only.');
    const next: StoredRow = { ...current };
    this.apply(t, next, body, false);
    this.checkState(t, next, body, false);
    next.modifiedon = now.toISOString();
    this.computed(t, next);
    this.rows.get(set)!.set(current.__id as string, next);
    return next;
  }

  delete(set: string, id: string): void {
    const row = this.get(set, id);
    this.rows.get(set)!.delete(row.__id as string);
  }

  /** Columns Dataverse computes: a contact's fullname ("first last"). */
  private computed(t: Table, row: StoredRow): void {
    if (t.set === 'contacts')
      row.fullname = [row.firstname, row.lastname].filter((s) => typeof s === 'string' && s !== '').join(' ');
  }

  /** A row as the Web API returns it: its columns, without the server's own fields. */
  static view(row: StoredRow, select: readonly string[] | null): Row {
    const out: Row = {};
    if (select !== null) {
      for (const k of select) out[k] = row[k] ?? null;
      return out;
    }
    for (const [k, v] of Object.entries(row)) if (k !== '__id' && k !== 'parties') out[k] = v ?? null;
    return out;
  }
}
