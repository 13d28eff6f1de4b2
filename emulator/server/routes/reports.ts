// Reports module: report schedules.
import {
  createReportScheduleBody,
  patchReportScheduleBody,
  type PatchReportScheduleBody,
} from '../../../connectors/platform/schemas';
import { createRoute, deleteRoute, dictionaryRoute, getRoute, listRoute, patchRoute } from '../crud';
import type { RouteDef } from '../route-def';
import { DICTIONARIES } from './dictionaries';

/** The model keeps `emails` as a comma-separated string and `frequency` as JSON text. */
function scheduleFields(body: PatchReportScheduleBody): Record<string, unknown> {
  const { emails, frequency, ...rest } = body;
  const row: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined),
  );
  if (emails != null) row.emails = emails.join(',');
  if (frequency != null) row.frequency = JSON.stringify(frequency);
  return row;
}

/** Routes of the reports module. */
export function reportsRoutes(): RouteDef[] {
  return [
    listRoute('GET /reportschedules', 'reportschedules'),
    createRoute('POST /reportschedules', 'reportschedules', createReportScheduleBody, (body, call) => ({
      description: '',
      last_run_at: null,
      next_run_at: null,
      timezone: 'UTC',
      status: 1,
      culture: 0,
      format: 0,
      start_at: call.ctx.clock.nowString(),
      ...scheduleFields(body),
    })),
    getRoute('GET /reportschedules/{id}', 'reportschedules'),
    patchRoute('PATCH /reportschedules/{id}', 'reportschedules', patchReportScheduleBody, {
      toPatch: scheduleFields,
    }),
    deleteRoute('DELETE /reportschedules/{id}', 'reportschedules'),
    dictionaryRoute('GET /reportschedules/dictionaries', DICTIONARIES.reportschedules),
  ];
}
