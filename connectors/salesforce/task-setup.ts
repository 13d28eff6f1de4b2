// The org's Task setup as callsync needs it: every Task field it writes must be writable by the
// integration user (Field-Level Security), and the Status and Priority values to write are the org's
// own (restricted picklists, task-values.ts). The Task describe is read once per connector.
import type { Connection } from 'jsforce';
import { CrmError } from '../crm/errors';
import { DESTINATION } from './errors';
import { TASK_STATUS_QUERY, taskValuesFrom, type TaskStatusRecord, type TaskValues } from './task-values';

/** Task fields callsync writes: created only (TaskSubtype), or created and updated. */
const TASK_FIELDS_WRITTEN: Record<string, 'create' | 'update'> = {
  Subject: 'update',
  Description: 'update',
  Status: 'update',
  Priority: 'update',
  ActivityDate: 'update',
  TaskSubtype: 'create',
  CallType: 'update',
  CallDurationInSeconds: 'update',
  CallDisposition: 'update',
  CallObject: 'update',
  WhoId: 'update',
  OwnerId: 'update',
};

export interface TaskSetupContext {
  connection: Connection;
  call<T>(send: () => Promise<T>): Promise<T>;
}

export class TaskSetup {
  private taskDescribe: ReturnType<Connection['describe']> | undefined;
  private taskValuesRead: Promise<TaskValues> | undefined;

  constructor(private readonly ctx: TaskSetupContext) {}

  /**
   * Checks that this user may write every Task field callsync sets (Field-Level Security hides or
   * locks fields per profile, and a hidden CallObject would fail every call log). Reads the Task
   * describe once; throws a non-retryable CrmError naming the fields to grant Edit access to.
   */
  async checkAccess(): Promise<void> {
    const describe = await this.describeTask();
    const fields = new Map(describe.fields.map((f) => [f.name, f]));
    const missing: string[] = [];
    for (const [name, need] of Object.entries(TASK_FIELDS_WRITTEN)) {
      const f = fields.get(name);
      if (!f || !f.createable || (need === 'update' && !f.updateable)) missing.push(`Task.${name}`);
    }
    if (missing.length > 0) {
      throw new CrmError({
        destination: DESTINATION,
        status: 403,
        code: 'INSUFFICIENT_ACCESS',
        message:
          `this user cannot write ${missing.join(', ')}: give the integration user's profile or a ` +
          'permission set Edit access to these fields (Field-Level Security)',
        retryable: false,
      });
    }
  }

  /** The Task describe, read once (a failed read is read again next time). */
  private describeTask(): ReturnType<Connection['describe']> {
    this.taskDescribe ??= this.ctx.call(() => this.ctx.connection.sobject('Task').describe());
    this.taskDescribe.catch(() => (this.taskDescribe = undefined));
    return this.taskDescribe;
  }

  /**
   * The org's Task Status and Priority values to write (task-values.ts): the describe's picklists and
   * the TaskStatus records, read once per connector (one org) and kept.
   */
  values(): Promise<TaskValues> {
    if (!this.taskValuesRead) {
      const read = (async () => {
        const describe = await this.describeTask();
        const statuses = await this.ctx.call(
          async () => await this.ctx.connection.query<TaskStatusRecord>(TASK_STATUS_QUERY),
        );
        return taskValuesFrom(describe, statuses.records);
      })();
      this.taskValuesRead = read;
      read.catch(() => {
        if (this.taskValuesRead === read) this.taskValuesRead = undefined;
      });
    }
    return this.taskValuesRead;
  }
}
