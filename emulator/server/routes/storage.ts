// Storage module: SMS, faxes, voicemail announcements and SMS canned responses.
import {
  createCannedResponseBody,
  createSmsBody,
  createVmAnnouncementBody,
  patchCannedResponseBody,
  patchVmAnnouncementBody,
  type CreateSmsBody,
  type PatchVmAnnouncementBody,
} from '../../../connectors/platform/schemas';
import type { Row } from '../../store';
import { createRoute, deleteAllRoute, deleteRoute, getRoute, listRoute, patchRoute } from '../crud';
import type { AuthedCall, RouteDef } from '../route-def';

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function smsRow(body: CreateSmsBody, call: AuthedCall): Record<string, unknown> {
  const user: Row | undefined = call.ctx.table('users').get(call.identity.user_id)?.row;
  return {
    from: body.from ?? (text(user?.mobile) || text(user?.cli)),
    from_id: String(call.identity.user_id),
    from_name: `${text(user?.first_name)} ${text(user?.last_name)}`.trim(),
    message: body.message,
    result: 'SENT',
    to: body.to,
    to_id: '',
    to_name: '',
    type: 'O',
    user_id: call.identity.user_id,
  };
}

/** Audio arrives as Base64; the row keeps its size, not the bytes. */
function announcementFields(body: PatchVmAnnouncementBody): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (body.extension_id != null) row.extension = body.extension_id;
  if (body.description != null) row.description = body.description;
  if (body.data != null) {
    const base64 = body.data.replace(/^data:[^,]*,/, '');
    row.size = Buffer.from(base64, 'base64').length;
  }
  return row;
}

/** Routes of the storage module. */
export function storageRoutes(): RouteDef[] {
  return [
    listRoute('GET /sms', 'sms'),
    createRoute('POST /sms', 'sms', createSmsBody, smsRow),
    deleteAllRoute('DELETE /sms', 'sms', { async: true }),
    getRoute('GET /sms/{id}', 'sms'),
    listRoute('GET /faxes', 'faxes'),
    listRoute('GET /vmannouncements', 'vmannouncements'),
    createRoute('POST /vmannouncements', 'vmannouncements', createVmAnnouncementBody, (body) => ({
      description: '',
      extension: 0,
      ...announcementFields(body),
    })),
    getRoute('GET /vmannouncements/{id}', 'vmannouncements'),
    patchRoute('PATCH /vmannouncements/{id}', 'vmannouncements', patchVmAnnouncementBody, {
      toPatch: (body) => announcementFields(body),
    }),
    deleteRoute('DELETE /vmannouncements/{id}', 'vmannouncements'),
    listRoute('GET /sms/cannedresponses', 'cannedresponses'),
    createRoute('POST /sms/cannedresponses', 'cannedresponses', createCannedResponseBody),
    getRoute('GET /sms/cannedresponses/{id}', 'cannedresponses'),
    patchRoute('PATCH /sms/cannedresponses/{id}', 'cannedresponses', patchCannedResponseBody),
    deleteRoute('DELETE /sms/cannedresponses/{id}', 'cannedresponses'),
  ];
}
