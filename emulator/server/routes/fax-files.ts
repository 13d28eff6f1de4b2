// GET /faxes/{id} and GET /faxes/{id}.pdf, beyond the spec: the official CLI shows one fax and
// downloads it as a PDF. The emulator keeps no fax images, so the PDF is one page naming the fax's
// sender, recipient and page count (a real, valid PDF a viewer opens).
import { textPdf } from '../../media';
import type { Row } from '../../store';
import { getRoute, param } from '../crud';
import { parseRouteSpec } from '../paths';
import { fieldText, findOwned } from '../records';
import { bytes } from '../responses';
import type { AuthedCall, RouteDef } from '../route-def';

/** Content type of the PDF downloads (faxes, invoices). */
export const PDF_CONTENT_TYPE = 'application/pdf';

/** The text lines of a fax's PDF. */
export function faxPdfLines(fax: Row): string[] {
  return [
    `Fax ${fieldText(fax, 'id')}`,
    `From: ${fieldText(fax, 'from')}`,
    `To: ${fieldText(fax, 'to')}`,
    `Pages: ${fieldText(fax, 'pages')}`,
    `Date: ${fieldText(fax, 'created_at')}`,
  ];
}

function faxPdf(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const fax = findOwned(call.ctx.table('faxes'), param(call, 'id'), call.identity);
  return bytes(PDF_CONTENT_TYPE, textPdf(faxPdfLines(fax)));
}

/** GET /faxes/{id} and GET /faxes/{id}.pdf. */
export function faxFileRoutes(): RouteDef[] {
  return [
    getRoute('GET /faxes/{id}', 'faxes'),
    { ...parseRouteSpec('GET /faxes/{id}.pdf'), auth: 'required', handle: faxPdf },
  ];
}
