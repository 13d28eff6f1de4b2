// Reports module resources: report schedules.
import { z } from 'zod';
import { code, date, int, intId, problem, str, textOrList } from './primitives';

/**
 * Report schedule. The spec types `emails` and `frequency` as strings in responses, while request
 * bodies send an array and an object; each is kept in the form it arrives in.
 */
export const reportScheduleSchema = z.looseObject({
  id: intId(),
  created_at: date(),
  culture: code(),
  description: str(),
  emails: textOrList(),
  end_at: date(),
  format: code(),
  frequency: z
    .union([z.string(), z.looseObject({})], { error: problem('must be a string or an object') })
    .nullable()
    .optional(),
  last_run_at: date(),
  name: str(),
  next_run_at: date(),
  report_id: int(),
  start_at: date(),
  status: code(),
  timezone: str(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;
