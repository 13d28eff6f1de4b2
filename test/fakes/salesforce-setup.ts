// The setup side of the local Salesforce: custom fields created through the Tooling API
// (`POST /tooling/sobjects/CustomField`) and field-level security as Salesforce applies it to fields
// made through the API: such a field exists but is visible to a user (in describes, queries and
// writes) only once a FieldPermissions record with Edit, on a permission set assigned to that user,
// grants it. Only callsync's contact-sync fields are modelled; another custom field is refused.

/** What the fake needs of its record store to decide visibility. */
interface SetupRecord {
  type: string;
  fields: Record<string, unknown>;
  IsDeleted: boolean;
}

export class SetupError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** The custom fields callsync's contact sync adds to Contact and Lead, with their metadata type. */
export const CALLSYNC_CUSTOM_FIELDS: Record<string, 'Text' | 'DateTime'> = {
  Callsync_Contact__c: 'Text',
  Callsync_Deleted__c: 'DateTime',
};
const CUSTOM_FIELD_OBJECTS = new Set(['Contact', 'Lead']);

export interface FieldSetupOptions {
  /**
   * 'absent' (default): the org as callsync finds it, without its fields. 'granted': an admin made
   * them and granted them already.
   */
  callsyncFields?: 'absent' | 'granted';
  /**
   * Whether the API user may change setup (Customize Application, Manage Users); default true.
   * Without it the Tooling API and permission-set writes are refused with INSUFFICIENT_ACCESS.
   */
  setupAccess?: boolean;
}

export class FieldSetup {
  /** `Object.Field` of the custom fields that exist. */
  readonly created = new Set<string>();
  readonly setupAccess: boolean;
  readonly #preGranted: boolean;

  constructor(
    opts: FieldSetupOptions,
    private readonly records: () => Iterable<SetupRecord>,
    private readonly apiUserId: () => string,
  ) {
    this.setupAccess = opts.setupAccess ?? true;
    this.#preGranted = opts.callsyncFields === 'granted';
    if (this.#preGranted)
      for (const object of CUSTOM_FIELD_OBJECTS)
        for (const field of Object.keys(CALLSYNC_CUSTOM_FIELDS)) this.created.add(`${object}.${field}`);
  }

  /** Whether the API user sees `field` of `type` (standard fields always; callsync's once granted). */
  visible(type: string, field: string): boolean {
    if (!(field in CALLSYNC_CUSTOM_FIELDS)) return true;
    const name = `${type}.${field}`;
    if (!this.created.has(name)) return false;
    if (this.#preGranted) return true;
    const live = [...this.records()].filter((r) => !r.IsDeleted);
    const mine = new Set(
      live
        .filter((r) => r.type === 'PermissionSetAssignment' && r.fields.AssigneeId === this.apiUserId())
        .map((r) => r.fields.PermissionSetId),
    );
    return live.some(
      (r) =>
        r.type === 'FieldPermissions' &&
        r.fields.Field === name &&
        r.fields.PermissionsEdit === true &&
        mine.has(r.fields.ParentId),
    );
  }

  /** Refuses a setup object's write for a user without setup rights. */
  checkSetupWrite(type: string): void {
    if (this.setupAccess) return;
    if (type === 'PermissionSet' || type === 'FieldPermissions' || type === 'PermissionSetAssignment')
      throw new SetupError(403, 'INSUFFICIENT_ACCESS', 'insufficient access rights on cross-reference id');
  }

  /** A setup record that would duplicate one that exists (the same grant or assignment twice). */
  checkDuplicate(type: string, fields: Record<string, unknown>): void {
    const key: Record<string, string[]> = {
      FieldPermissions: ['ParentId', 'Field'],
      PermissionSetAssignment: ['PermissionSetId', 'AssigneeId'],
      PermissionSet: ['Name'],
    };
    const keys = key[type];
    if (!keys) return;
    const twin = [...this.records()].some(
      (r) => r.type === type && !r.IsDeleted && keys.every((k) => r.fields[k] === fields[k]),
    );
    if (twin) throw new SetupError(400, 'DUPLICATE_VALUE', `duplicate value found: ${keys.join(', ')}`);
  }

  /** `POST /tooling/sobjects/CustomField`: the field's id, or Salesforce's error. */
  createCustomField(body: unknown): string {
    if (!this.setupAccess)
      throw new SetupError(403, 'INSUFFICIENT_ACCESS', 'insufficient access rights on cross-reference id');
    const input = (typeof body === 'object' && body !== null ? body : {}) as {
      FullName?: unknown;
      Metadata?: { type?: unknown; label?: unknown; length?: unknown };
    };
    const m = typeof input.FullName === 'string' ? /^(\w+)\.(\w+__c)$/.exec(input.FullName) : null;
    if (!m) throw new SetupError(400, 'INVALID_FIELD', 'FullName must be Object.Field__c');
    const [, object, field] = m as unknown as [string, string, string];
    const meta = input.Metadata ?? {};
    if (typeof meta.label !== 'string' || meta.label === '')
      throw new SetupError(400, 'REQUIRED_FIELD_MISSING', 'Required fields are missing: [Label]');
    const wanted = CALLSYNC_CUSTOM_FIELDS[field];
    if (!CUSTOM_FIELD_OBJECTS.has(object) || wanted === undefined)
      throw new SetupError(400, 'INVALID_FIELD', `the local Salesforce does not model ${object}.${field}`);
    if (meta.type !== wanted)
      throw new SetupError(
        400,
        'FIELD_INTEGRITY_EXCEPTION',
        `${field}: type ${String(meta.type)} is not ${wanted}`,
      );
    if (wanted === 'Text' && (typeof meta.length !== 'number' || meta.length < 1 || meta.length > 255))
      throw new SetupError(400, 'FIELD_INTEGRITY_EXCEPTION', 'Length: a Text field is 1 to 255 characters');
    const name = `${object}.${field}`;
    if (this.created.has(name))
      throw new SetupError(
        400,
        'DUPLICATE_DEVELOPER_NAME',
        `There is already a field named ${field.replace(/__c$/, '')} on ${object}.`,
      );
    this.created.add(name);
    return `00N${String(this.created.size).padStart(12, '0')}AAA`;
  }
}
