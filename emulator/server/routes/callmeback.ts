// Call Me Back module: widget settings, websites, buttons, related CDRs and visitors.
import {
  createCallMeBackButtonBody,
  createCallMeBackSettingBody,
  patchCallMeBackButtonBody,
  patchCallMeBackSettingBody,
  type PatchCallMeBackSettingBody,
} from '../../../connectors/platform/schemas';
import { createRoute, deleteRoute, getRoute, listRoute, patchRoute } from '../crud';
import type { RouteDef } from '../route-def';

/** The model keeps the widget's number as `ddi` (an integer); requests send `ddi_e164`. */
function settingFields(body: PatchCallMeBackSettingBody): Record<string, unknown> {
  const { ddi_e164, allowed_countries, ...rest } = body;
  const row: Record<string, unknown> = { ...rest };
  if (ddi_e164 != null) row.ddi = Number(String(ddi_e164).replace('+', ''));
  if (allowed_countries != null) {
    row.allowed_countries = Array.isArray(allowed_countries)
      ? allowed_countries.join(',')
      : allowed_countries;
  }
  return row;
}

/** Routes of the Call Me Back module. */
export function callMeBackRoutes(): RouteDef[] {
  return [
    listRoute('GET /callmeback/websites', 'callmeback_websites'),
    listRoute('GET /callmeback/settings', 'callmeback_settings'),
    createRoute(
      'POST /callmeback/settings',
      'callmeback_settings',
      createCallMeBackSettingBody,
      settingFields,
    ),
    getRoute('GET /callmeback/settings/{id}', 'callmeback_settings'),
    patchRoute('PATCH /callmeback/settings/{id}', 'callmeback_settings', patchCallMeBackSettingBody, {
      toPatch: settingFields,
    }),
    deleteRoute('DELETE /callmeback/settings/{id}', 'callmeback_settings'),
    listRoute('GET /callmeback/cdrs', 'callmeback_cdrs'),
    listRoute('GET /callmeback/visitors', 'callmeback_visitors'),
    getRoute('GET /callmeback/buttons/{id}', 'callmeback_buttons'),
    patchRoute('PATCH /callmeback/buttons/{id}', 'callmeback_buttons', patchCallMeBackButtonBody),
    deleteRoute('DELETE /callmeback/buttons/{id}', 'callmeback_buttons'),
    createRoute('POST /callmeback/buttons', 'callmeback_buttons', createCallMeBackButtonBody),
  ];
}
