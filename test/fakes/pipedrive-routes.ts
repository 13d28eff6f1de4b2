// The endpoints of the fake Pipedrive that callsync's connector calls, each checking what Pipedrive
// documents for it and answering in its shape. Documentation: persons (v2)
// https://developers.pipedrive.com/docs/api/v1/Persons, activities (v2)
// https://developers.pipedrive.com/docs/api/v1/Activities, call logs (v1)
// https://developers.pipedrive.com/docs/api/v1/CallLogs, notes (v1)
// https://developers.pipedrive.com/docs/api/v1/Notes, users (v1) https://developers.pipedrive.com/docs/api/v1/Users,
// person fields (v1) https://developers.pipedrive.com/docs/api/v1/PersonFields.
import type { RouteRequest } from './pipedrive-http';
import { ACTIVITY_ROUTES } from './pipedrive-activity-routes';
import { PEOPLE_ROUTES } from './pipedrive-people-routes';
import { PERSON_SYNC_ROUTES } from './pipedrive-person-sync-routes';
import type { PipedriveState } from './pipedrive-records';

export type { RouteRequest } from './pipedrive-http';

const ROUTES = [...PEOPLE_ROUTES, ...PERSON_SYNC_ROUTES, ...ACTIVITY_ROUTES];

/** The handler of a request, or null when the fake has no such endpoint. */
export function route(
  method: string,
  path: string,
): ((s: PipedriveState, r: RouteRequest) => unknown) | null {
  for (const [m, re, handler] of ROUTES) {
    const hit = m === method ? re.exec(path) : null;
    if (hit) return (s, r) => handler(s, r, hit[1] ?? '');
  }
  return null;
}
