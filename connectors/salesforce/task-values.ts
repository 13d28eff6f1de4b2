// The Task Status and Priority values an org uses. Both are restricted picklists an admin may rename
// or extend ('Offen'/'Erledigt', priority 'Mittel'): Salesforce refuses any other value with
// INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST. callsync reads the Task describe (fields[].picklistValues:
// value, active, defaultValue) and the TaskStatus records, which say which Status values mean closed
// (IsClosed) and which is the default (IsDefault):
// https://developer.salesforce.com/docs/atlas.en-us.256.0.object_reference.meta/object_reference/sforce_api_objects_taskstatus.htm
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';

/** The Task values callsync writes in one org. */
export interface TaskValues {
  /** Status of an open task (a new callback): the default status, or the first open one. */
  openStatus: string;
  /** Status of a done task (call logs, messages, a closed callback): a closed status. */
  closedStatus: string;
  /** Status of an expired callback: 'Deferred' where the org has it open, else the open status. */
  deferredStatus: string;
  /** Priority of call logs and messages: the picklist's default. */
  defaultPriority: string;
  /** The active Priority values (a configured callback priority is used only when one of them). */
  priorities: readonly string[];
}

/** A new org's values (Not Started, Completed, Deferred; Normal), for mappings called without an org. */
export const STANDARD_TASK_VALUES: TaskValues = {
  openStatus: 'Not Started',
  closedStatus: 'Completed',
  deferredStatus: 'Deferred',
  defaultPriority: 'Normal',
  priorities: ['High', 'Normal', 'Low'],
};

/** The TaskStatus records in picklist order. */
export const TASK_STATUS_QUERY =
  'SELECT MasterLabel, ApiName, IsClosed, IsDefault FROM TaskStatus ORDER BY SortOrder ASC';

export interface TaskStatusRecord {
  ApiName?: string | null;
  MasterLabel?: string | null;
  IsClosed?: boolean | null;
  IsDefault?: boolean | null;
}

interface PicklistValue {
  value?: string | null;
  active?: boolean | null;
  defaultValue?: boolean | null;
}
export interface TaskDescribeLike {
  fields: { name: string; picklistValues?: PicklistValue[] | null | undefined }[];
}

function refuse(message: string): CrmError {
  return new CrmError({
    destination: DESTINATION,
    status: 400,
    code: 'TASK_PICKLIST',
    message,
    retryable: false,
  });
}

/** The values to write, from the org's Task describe and TaskStatus records. */
export function taskValuesFrom(
  describe: TaskDescribeLike,
  statuses: readonly TaskStatusRecord[],
): TaskValues {
  const active = (field: string) =>
    (describe.fields.find((f) => f.name === field)?.picklistValues ?? []).filter(
      (p): p is PicklistValue & { value: string } => p.active !== false && typeof p.value === 'string',
    );
  const statusValues = new Set(active('Status').map((p) => p.value));
  // A TaskStatus whose value the picklist takes (both describe the same values; be safe).
  const usable = statuses
    .map((s) => ({
      value: s.ApiName ?? s.MasterLabel ?? '',
      closed: s.IsClosed === true,
      def: s.IsDefault === true,
    }))
    .filter((s) => s.value !== '' && (statusValues.size === 0 || statusValues.has(s.value)));
  const closed = usable.filter((s) => s.closed);
  const open = usable.filter((s) => !s.closed);
  const closedStatus = (closed.find((s) => s.value === 'Completed') ?? closed[0])?.value;
  const openStatus = (open.find((s) => s.def) ?? open[0])?.value;
  if (!closedStatus || !openStatus)
    throw refuse(
      `the org's Task Status picklist needs an open and a closed value (TaskStatus.IsClosed); found ` +
        `${usable.map((s) => `${s.value}${s.closed ? ' (closed)' : ''}`).join(', ') || 'none'}`,
    );
  const priorities = active('Priority');
  const defaultPriority =
    priorities.find((p) => p.defaultValue === true)?.value ??
    priorities.find((p) => p.value === 'Normal')?.value ??
    priorities[0]?.value;
  if (!defaultPriority) throw refuse("the org's Task Priority picklist has no active value");
  return {
    openStatus,
    closedStatus,
    deferredStatus: open.some((s) => s.value === 'Deferred') ? 'Deferred' : openStatus,
    defaultPriority,
    priorities: priorities.map((p) => p.value),
  };
}

/** The configured priority where the org has it, else the org's default. */
export function taskPriority(values: TaskValues, wanted: string): string {
  return values.priorities.includes(wanted) ? wanted : values.defaultPriority;
}
