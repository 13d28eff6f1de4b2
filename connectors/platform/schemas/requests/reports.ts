// Request bodies of the reports module.
import { z } from 'zod';
import { array, body, codeValue, dateText, email, integer, opt, requiredText, text } from './fields';

const frequency = () =>
  body({
    type: opt(text()),
    time_of_day: opt(array()),
    day_of_week: opt(array()),
    day_of_month: opt(array()),
  });

/** POST /reportschedules */
export const createReportScheduleBody = body({
  report_id: integer(),
  name: requiredText(),
  description: opt(text()),
  emails: opt(array(email())),
  format: opt(codeValue()),
  culture: opt(codeValue()),
  start_at: opt(dateText()),
  end_at: opt(dateText()),
  status: opt(codeValue()),
  frequency: opt(frequency()),
  timezone: opt(text()),
});
export type CreateReportScheduleBody = z.infer<typeof createReportScheduleBody>;

/** PATCH /reportschedules/{id} */
export const patchReportScheduleBody = createReportScheduleBody.partial();
export type PatchReportScheduleBody = z.infer<typeof patchReportScheduleBody>;
