// The Salesforce test server's sObject types: the fields of each (kind, length, picklist values,
// create-only and read-only fields, references), the required fields, the defaults a create fills in,
// the id prefixes, and the Task Status and Priority picklists of a new org. Used by salesforce-records.ts
// (validation), salesforce-query.ts and salesforce-describe.ts.
import type { FieldDef, PicklistEntry, SObjectType } from './salesforce-state';

/** Task.Status as a new org has it: Not Started the default, Completed the one closed value. */
export const STANDARD_TASK_STATUSES: PicklistEntry[] = [
  { value: 'Not Started', defaultValue: true },
  { value: 'In Progress' },
  { value: 'Completed', closed: true },
  { value: 'Waiting on someone else' },
  { value: 'Deferred' },
];
/** Task.Priority as a new org has it: Normal the default. */
export const STANDARD_TASK_PRIORITIES: PicklistEntry[] = [
  { value: 'High' },
  { value: 'Normal', defaultValue: true },
  { value: 'Low' },
];

const TASK: Record<string, FieldDef> = {
  Subject: { kind: 'string', max: 255 },
  Description: { kind: 'textarea', max: 32_000 },
  // Restricted picklists whose values are the org's own (setTaskPicklist): an org may rename them.
  Status: { kind: 'picklist', orgPicklist: 'Status' },
  Priority: { kind: 'picklist', orgPicklist: 'Priority' },
  ActivityDate: { kind: 'date' },
  TaskSubtype: {
    kind: 'picklist',
    values: ['Task', 'Email', 'ListEmail', 'Cadence', 'Call', 'LinkedIn'],
    createOnly: true,
  },
  CallType: { kind: 'picklist', values: ['Internal', 'Inbound', 'Outbound'] },
  CallDurationInSeconds: { kind: 'int' },
  CallDisposition: { kind: 'string', max: 255 },
  CallObject: { kind: 'string', max: 255 },
  WhoId: { kind: 'reference', refersTo: ['Contact', 'Lead'] },
  OwnerId: { kind: 'reference', refersTo: ['User'] },
};
const NAME_AND_OWNER: Record<string, FieldDef> = {
  FirstName: { kind: 'string', max: 40 },
  LastName: { kind: 'string', max: 80 },
  Email: { kind: 'string', max: 80 },
  OwnerId: { kind: 'reference', refersTo: ['User'] },
};
/** The custom fields an org adds for callsync's contact sync (docs/contact-sync.md "Contact sync"). */
const CALLSYNC_FIELDS: Record<string, FieldDef> = {
  Callsync_Contact__c: { kind: 'string', max: 255 },
  Callsync_Deleted__c: { kind: 'datetime' },
};
const CONTACT: Record<string, FieldDef> = {
  ...NAME_AND_OWNER,
  Phone: { kind: 'string', max: 40 },
  MobilePhone: { kind: 'string', max: 40 },
  HomePhone: { kind: 'string', max: 40 },
  OtherPhone: { kind: 'string', max: 40 },
  AssistantPhone: { kind: 'string', max: 40 },
  Description: { kind: 'textarea', max: 32_000 },
  AccountId: { kind: 'reference', refersTo: ['Account'] },
  ...CALLSYNC_FIELDS,
};
const LEAD: Record<string, FieldDef> = {
  ...NAME_AND_OWNER,
  Phone: { kind: 'string', max: 40 },
  MobilePhone: { kind: 'string', max: 40 },
  Company: { kind: 'string', max: 255 },
  Description: { kind: 'textarea', max: 32_000 },
  // Set by lead conversion (convertLead), never by a create or an update.
  IsConverted: { kind: 'boolean', readOnly: true },
  ConvertedContactId: { kind: 'reference', refersTo: ['Contact'], readOnly: true },
  ...CALLSYNC_FIELDS,
};
const USER: Record<string, FieldDef> = { ...NAME_AND_OWNER, IsActive: { kind: 'boolean' } };
const ACCOUNT: Record<string, FieldDef> = { Name: { kind: 'string', max: 255 } };
/** Setup objects callsync writes to grant its own fields (salesforce-setup.ts). */
const PERMISSION_SET: Record<string, FieldDef> = {
  Name: { kind: 'string', max: 80 },
  Label: { kind: 'string', max: 80 },
  Description: { kind: 'textarea', max: 255 },
};
const FIELD_PERMISSIONS: Record<string, FieldDef> = {
  ParentId: { kind: 'reference', refersTo: ['PermissionSet'], createOnly: true },
  SobjectType: { kind: 'string', max: 80, createOnly: true },
  Field: { kind: 'string', max: 255, createOnly: true },
  PermissionsRead: { kind: 'boolean' },
  PermissionsEdit: { kind: 'boolean' },
};
const PERMISSION_SET_ASSIGNMENT: Record<string, FieldDef> = {
  AssigneeId: { kind: 'reference', refersTo: ['User'], createOnly: true },
  PermissionSetId: { kind: 'reference', refersTo: ['PermissionSet'], createOnly: true },
};
/**
 * The values of Task.Status with their meaning (supported calls describeSObjects(), query(),
 * retrieve(): read only;
 * https://developer.salesforce.com/docs/atlas.en-us.256.0.object_reference.meta/object_reference/sforce_api_objects_taskstatus.htm).
 */
const TASK_STATUS: Record<string, FieldDef> = {
  MasterLabel: { kind: 'string', max: 255, readOnly: true },
  ApiName: { kind: 'string', max: 255, readOnly: true },
  IsClosed: { kind: 'boolean', readOnly: true },
  IsDefault: { kind: 'boolean', readOnly: true },
  SortOrder: { kind: 'int', readOnly: true },
};
export const SCHEMA: Record<SObjectType, Record<string, FieldDef>> = {
  Task: TASK,
  Contact: CONTACT,
  Lead: LEAD,
  User: USER,
  Account: ACCOUNT,
  PermissionSet: PERMISSION_SET,
  FieldPermissions: FIELD_PERMISSIONS,
  PermissionSetAssignment: PERMISSION_SET_ASSIGNMENT,
  TaskStatus: TASK_STATUS,
};
export const REQUIRED: Record<SObjectType, string[]> = {
  Task: [],
  Contact: ['LastName'],
  Lead: ['LastName', 'Company'],
  User: [],
  Account: ['Name'],
  PermissionSet: ['Name', 'Label'],
  FieldPermissions: ['ParentId', 'SobjectType', 'Field'],
  PermissionSetAssignment: ['AssigneeId', 'PermissionSetId'],
  TaskStatus: [],
};
export const DEFAULTS: Record<SObjectType, Record<string, unknown>> = {
  // Status and Priority default to the org's default values (insert).
  Task: { TaskSubtype: 'Task' },
  Contact: {},
  Lead: { IsConverted: false },
  User: { IsActive: true },
  Account: {},
  PermissionSet: {},
  FieldPermissions: { PermissionsRead: false, PermissionsEdit: false },
  PermissionSetAssignment: {},
  TaskStatus: {},
};
export const PREFIX: Record<SObjectType, string> = {
  Task: '00T',
  Contact: '003',
  Lead: '00Q',
  User: '005',
  Account: '001',
  PermissionSet: '0PS',
  FieldPermissions: '01k',
  PermissionSetAssignment: '0Pa',
  TaskStatus: '01J',
};
