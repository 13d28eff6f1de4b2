// History module: chats and chat messages, CDRs (with SIP trace, PCAP, notes and CSV export), recordings
// (monitors), media session detail records, voice messages and statements.
import { bulkPatchVoicemessagesBody, patchMonitorBody } from '../../../connectors/platform/schemas';
import {
  bulkPatchRoute,
  deleteAllRoute,
  deleteIdsRoute,
  dictionaryRoute,
  getRoute,
  listRoute,
  param,
  parentRow,
  patchRoute,
} from '../crud';
import { checkQueryProperties, parseCollectionQuery } from '../collection-query';
import { parseRouteSpec, type RouteSpec } from '../paths';
import { notFound } from '../http-error';
import { findOwned } from '../records';
import { bytes } from '../responses';
import type { ApiResponse, AuthedCall, RouteDef } from '../route-def';
import type { Row, TableName } from '../../store';
import { patchCdrsRoute } from './cdr-annotations';
import { DICTIONARIES } from './dictionaries';
import type { Mp3ToneStream } from '../../media/mp3';
import { cdrsCsvExport, monitorAudio, pcapOf, sipTraceOf, voicemessageAudio } from './media-content';

/** Content types of the binary endpoints. */
export const CONTENT_TYPES = {
  mp3: 'audio/mpeg',
  pcap: 'application/vnd.tcpdump.pcap',
  trace: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
} as const;

/** GET of one row rendered as bytes (.mp3, .pcap, .trace). */
function fileRoute(
  spec: RouteSpec,
  table: TableName,
  contentType: string,
  render: (row: Row) => Buffer | string | Mp3ToneStream,
): RouteDef {
  return {
    ...parseRouteSpec(spec),
    auth: 'required',
    handle: (call: AuthedCall): ApiResponse => {
      const row = findOwned(call.ctx.table(table), param(call, 'id'), call.identity);
      if (table === 'monitors' || table === 'voicemessages') {
        // Audio that is late (or lost) answers 404 as the platform does while its file is not stored.
        if (!call.ctx.audio.ready(table, Number(row.id), call.ctx.clock.now()))
          throw notFound(`${table} ${String(row.id)} audio`);
      }
      const content = render(row);
      if (typeof content === 'string' || Buffer.isBuffer(content)) return bytes(contentType, content);
      return {
        kind: 'stream',
        status: 200,
        contentType,
        length: content.length,
        open: () => content.stream(),
      };
    },
  };
}

/** The user's CDRs (page/limit/filter apply) as CSV. */
function userCdrsCsv(call: AuthedCall): ApiResponse {
  const user = parentRow(call, 'users', '/users/{id}/cdrs.csv');
  const q = parseCollectionQuery(call.query, call.ctx.api);
  checkQueryProperties(call.ctx.table('cdrs'), q);
  const { data } = call.ctx.table('cdrs').query(call.identity.customer_id, {
    ...q,
    filter: [{ property: 'user_id', operator: 'eq', value: user.id }, ...q.filter],
  });
  return bytes(CONTENT_TYPES.csv, cdrsCsvExport(data));
}

/** Routes of the history module. */
export function historyRoutes(): RouteDef[] {
  return [
    listRoute('GET /chats', 'chats'),
    getRoute('GET /chats/{id}', 'chats'),
    deleteIdsRoute('DELETE /chatmsgs/{ids}', 'chatmsgs'),
    deleteAllRoute('DELETE /chatmsgs', 'chatmsgs'),
    listRoute('GET /cdrs', 'cdrs'),
    patchCdrsRoute(),
    deleteAllRoute('DELETE /cdrs', 'cdrs'),
    fileRoute('GET /cdrs/{id}.trace', 'cdrs', CONTENT_TYPES.trace, sipTraceOf),
    fileRoute('GET /cdrs/{id}.pcap', 'cdrs', CONTENT_TYPES.pcap, pcapOf),
    listRoute('GET /cdrs/calltracking', 'calltracking_cdrs'),
    getRoute('GET /cdrs/{id}', 'cdrs'),
    dictionaryRoute('GET /cdrs/dictionaries', DICTIONARIES.cdrs),
    listRoute('GET /cdrs/{id}/notes', 'cdrnotes', {
      parent: 'cdrs',
      scope: (_call, cdr) => [{ property: 'cdr_id', operator: 'eq', value: cdr?.id ?? null }],
    }),
    fileRoute('GET /monitors/{id}.mp3', 'monitors', CONTENT_TYPES.mp3, monitorAudio),
    listRoute('GET /monitors', 'monitors'),
    deleteAllRoute('DELETE /monitors', 'monitors', { async: true }),
    getRoute('GET /monitors/{id}', 'monitors'),
    patchRoute('PATCH /monitors/{id}', 'monitors', patchMonitorBody),
    deleteIdsRoute('DELETE /monitors/{ids}', 'monitors'),
    fileRoute('GET /msdrs/{id}.trace', 'msdrs', CONTENT_TYPES.trace, sipTraceOf),
    fileRoute('GET /msdrs/{id}.pcap', 'msdrs', CONTENT_TYPES.pcap, pcapOf),
    listRoute('GET /msdrs', 'msdrs'),
    getRoute('GET /msdrs/{id}', 'msdrs'),
    dictionaryRoute('GET /msdrs/dictionaries', DICTIONARIES.msdrs),
    deleteAllRoute('DELETE /statements', 'statements'),
    fileRoute('GET /voicemessages/{id}.mp3', 'voicemessages', CONTENT_TYPES.mp3, voicemessageAudio),
    listRoute('GET /voicemessages', 'voicemessages'),
    bulkPatchRoute('PATCH /voicemessages', 'voicemessages', bulkPatchVoicemessagesBody),
    deleteAllRoute('DELETE /voicemessages', 'voicemessages', { async: true }),
    getRoute('GET /voicemessages/{id}', 'voicemessages'),
    deleteIdsRoute('DELETE /voicemessages/{ids}', 'voicemessages'),
    dictionaryRoute('GET /sms/dictionaries', DICTIONARIES.sms),
    listRoute('GET /calltracking/cdrs', 'calltracking_cdrs'),
    {
      ...parseRouteSpec('GET /users/{id}/cdrs.csv'),
      auth: 'required',
      handle: userCdrsCsv,
    },
    dictionaryRoute('GET /mediasessions/dictionaries', DICTIONARIES.mediasessions),
  ];
}
