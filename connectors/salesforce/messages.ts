// SMS and voice messages in Salesforce: each is a completed Task of subtype Task on the Contact or
// Lead (WhoId). The channel is the start of the Subject ("SMS from …", "Voicemail from …"): Task.Type
// is an org-defined picklist that need not hold SMS or Voicemail. callsync's key goes into CallObject,
// as for call logs and callback tasks, so findMessageLog finds a Task whose create answer was lost.
import { truncate } from '../crm/call-log-body';
import type { MessageLog } from '../crm/crm-connector';
import { DESCRIPTION_MAX, SUBJECT_MAX, keyField, toSalesforceDate, type TaskFields } from './fields';
import { STANDARD_TASK_VALUES, type TaskValues } from './task-values';

/** Task fields of a message log; `create` adds the create-only TaskSubtype. */
export function messageTaskFields(
  log: MessageLog,
  mode: 'create' | 'update',
  ownerId: string | null,
  values: TaskValues = STANDARD_TASK_VALUES,
): TaskFields {
  const fields: TaskFields = {
    Subject: truncate(log.title, SUBJECT_MAX),
    Description: truncate(log.body, DESCRIPTION_MAX),
    ActivityDate: toSalesforceDate(log.at),
    Status: values.closedStatus,
    Priority: values.defaultPriority,
    CallObject: keyField(log.key),
    WhoId: log.contact.crmId,
  };
  if (mode === 'create') fields.TaskSubtype = 'Task';
  if (ownerId) fields.OwnerId = ownerId;
  return fields;
}
