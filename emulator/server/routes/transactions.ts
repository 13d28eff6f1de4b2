// GET /transactions and GET /transactions/{id}/invoice, beyond the spec: the platform's billing
// clients (its Data Studio connector's "transactions" table, the community Singer tap's stream) read
// the account's ledger as {id, date, type, description, amount, currency, balance, invoice_id} and
// download the invoice a transaction belongs to as a PDF. The emulator derives the ledger from its
// monthly statements: each is an invoice (a debit, id 2n-1) paid by direct debit an hour later (a
// credit, id 2n, once the clock has reached it); balance runs from 0 in date order.
import { textPdf } from '../../media';
import type { Row } from '../../store';
import { allRows, derivedCollection } from '../derived-collection';
import { notFound } from '../http-error';
import { fieldText } from '../records';
import { parseRouteSpec } from '../paths';
import { bytes } from '../responses';
import type { AuthedCall, RouteDef } from '../route-def';
import { PDF_CONTENT_TYPE } from './fax-files';

const HOUR_MS = 3_600_000;

function laterBy(dateTime: string, ms: number): string {
  const t = Date.parse(`${dateTime.replace(' ', 'T')}Z`) + ms;
  return new Date(t).toISOString().slice(0, 19).replace('T', ' ');
}

function cents(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The account's ledger, derived from its statements (see the file comment). */
export function transactionRows(statements: readonly Row[], now: string): Row[] {
  const rows: Row[] = [];
  let balance = 0;
  for (const s of statements) {
    const amount = Number(s.amount ?? 0);
    const common = { currency: fieldText(s, 'currency'), invoice_id: fieldText(s, 'number') };
    const invoiced = fieldText(s, 'created_at');
    balance = cents(balance - amount);
    rows.push({
      id: Number(s.id) * 2 - 1,
      date: invoiced,
      type: 'invoice',
      description: `Invoice ${common.invoice_id}`,
      amount: cents(-amount),
      balance,
      ...common,
    });
    const paid = laterBy(invoiced, HOUR_MS);
    if (paid > now) continue;
    balance = cents(balance + amount);
    rows.push({
      id: Number(s.id) * 2,
      date: paid,
      type: 'payment',
      description: `Direct debit for invoice ${common.invoice_id}`,
      amount: cents(amount),
      balance,
      ...common,
    });
  }
  return rows;
}

function ledger(call: AuthedCall): Row[] {
  const statements = allRows(call.ctx.table('statements'), call.identity.customer_id);
  return transactionRows(statements, call.ctx.clock.nowString());
}

function listTransactions(call: AuthedCall): ReturnType<RouteDef['handle']> {
  return derivedCollection('transactions', call.identity.customer_id, ledger(call), call.query, call.ctx.api);
}

/** The invoice's PDF: its number, period and the statement's totals. */
function invoice(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const id = Number(call.params.id ?? '');
  const tx = ledger(call).find((r) => r.id === id);
  if (tx === undefined) throw notFound('transactions id');
  const number = fieldText(tx, 'invoice_id');
  const statements = allRows(call.ctx.table('statements'), call.identity.customer_id);
  const s = statements.find((r) => fieldText(r, 'number') === number);
  if (s === undefined) throw notFound('transactions id');
  const currency = fieldText(s, 'currency');
  return bytes(
    PDF_CONTENT_TYPE,
    textPdf([
      `Invoice ${number}`,
      `Date: ${fieldText(s, 'created_at')}`,
      `Period: ${fieldText(s, 'period_start')} to ${fieldText(s, 'period_end')}`,
      `Calls: ${fieldText(s, 'calls')}, call charges: ${fieldText(s, 'call_charges')} ${currency}`,
      `Subscription fees: ${fieldText(s, 'subscription_fees')} ${currency}`,
      `Total: ${fieldText(s, 'amount')} ${currency}`,
    ]),
  );
}

/** GET /transactions and GET /transactions/{id}/invoice. */
export function transactionRoutes(): RouteDef[] {
  return [
    { ...parseRouteSpec('GET /transactions'), auth: 'required', handle: listTransactions },
    { ...parseRouteSpec('GET /transactions/{id}/invoice'), auth: 'required', handle: invoice },
  ];
}
