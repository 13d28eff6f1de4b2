// What the fake Pipedrive holds (persons, activities, call logs, notes, users) and Pipedrive's error
// answers (https://pipedrive.readme.io/docs/core-api-concepts-http-status-codes): a JSON body
// `{ success: false, error, error_info, errorCode? }` with the HTTP status.

export interface FakePerson {
  id: number;
  name: string;
  phones: { value: string; primary: boolean; label: string }[];
  emails: { value: string; primary: boolean; label: string }[];
  /** Custom field values by the field's hash key. */
  custom_fields: Record<string, unknown>;
  owner_id: number;
  add_time: string;
  update_time: string;
}

export interface FakeActivity {
  id: number;
  subject: string;
  type: string;
  done: boolean;
  due_date: string | null;
  due_time: string | null;
  duration: string | null;
  person_id: number | null;
  owner_id: number;
  note: string | null;
  is_deleted: boolean;
  add_time: string;
  update_time: string;
}

export interface FakeCallLog {
  id: string;
  activity_id: number | null;
  person_id: number | null;
  user_id: number;
  subject: string | null;
  outcome: string;
  to_phone_number: string;
  from_phone_number: string | null;
  start_time: string;
  end_time: string;
  duration: string | null;
}

export interface FakeNote {
  id: number;
  content: string;
  person_id: number | null;
  user_id: number;
  add_time: string;
  update_time: string;
}

/** A person field (custom ones are found by name and addressed by their 40-character key). */
export interface FakePersonField {
  id: number;
  key: string;
  name: string;
  field_type: string;
}

export interface FakeUser {
  id: number;
  name: string;
  email: string;
  active_flag: boolean;
}

export interface PipedriveState {
  persons: Map<number, FakePerson>;
  activities: Map<number, FakeActivity>;
  callLogs: Map<string, FakeCallLog>;
  notes: Map<number, FakeNote>;
  users: Map<number, FakeUser>;
  personFields: FakePersonField[];
  nextId: number;
  /** The user the API token (or the OAuth install) belongs to. */
  apiUserId: number;
}

export function newState(): PipedriveState {
  const admin: FakeUser = { id: 1, name: 'API user', email: 'admin@example.com', active_flag: true };
  return {
    persons: new Map(),
    activities: new Map(),
    callLogs: new Map(),
    notes: new Map(),
    users: new Map([[admin.id, admin]]),
    // A company's own person fields (name, phone, email…) are there from the start; none is custom.
    personFields: [
      { id: 1, key: 'name', name: 'Name', field_type: 'varchar' },
      { id: 2, key: 'phone', name: 'Phone', field_type: 'phone' },
      { id: 3, key: 'email', name: 'Email', field_type: 'varchar' },
    ],
    nextId: 100,
    apiUserId: admin.id,
  };
}

/** Pipedrive's time format in v1 answers and the fake's stamps: "YYYY-MM-DD HH:MM:SS" UTC. */
export function stamp(ms = Date.now()): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** An error answer as Pipedrive sends it. */
export class PipedriveFakeError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
  ) {
    super(error);
  }

  body(): Record<string, unknown> {
    return {
      success: false,
      error: this.error,
      errorCode: this.status,
      error_info: 'Please check developers.pipedrive.com for more information about Pipedrive API.',
      data: null,
      additional_data: null,
    };
  }
}

export const badRequest = (error: string) => new PipedriveFakeError(400, error);
export const notFound = (what: string) => new PipedriveFakeError(404, `${what} not found`);
