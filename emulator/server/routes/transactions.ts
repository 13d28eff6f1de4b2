// GET /transactions, GET /transactions/{id}, GET /transactions/{id}.pdf and GET /transactions/{id}/invoice,
// beyond the spec: the platform's billing clients (its Data Studio connector's "transactions" table, the
// community Singer tap's stream) read the account's ledger as {id, date, type, description, amount,
// currency, balance, invoice_id}; the official CLI reads the same rows as `created_at`, `amount`,
// `currency_iso`, `type` and `result`, shows one with GET /transactions/{id} and downloads it from
// GET /transactions/{id}.pdf, skipping one "not completed yet" (VoIPstudio/cli-client src/entities.js,
// entity "invoice"). Rows carry both namings. The emulator derives the ledger from its monthly statements:
// each is an invoice (a debit, id 2n-1) paid by direct debit an hour later (a credit, id 2n, once the
// clock has reached it); an invoice is `pending` until then and `completed` after; balance runs from 0 in
// date order.
import { textPdf } from '../../media';
import type { Row } from '../../store';
import { allRows, derivedCollection } from '../derived-collection';
import { HttpError, notFound } from '../http-error';
import { fieldText } from '../records';
import { parseRouteSpec } from '../paths';
import { bytes, single } from '../responses';
import type { AuthedCall, RouteDef } from '../route-def';
import { PDF_CONTENT_TYPE } from './fax-files';

const HOUR_MS = 3_600_000;
/** `result` of a transaction that has run its course (an invoice once paid, a payment). */
const COMPLETED = 'completed';
/** `result` of an invoice not paid yet: it has no PDF yet (the official CLI skips it). */
const PENDING = 'pending';

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
    const currency = fieldText(s, 'currency');
    const common = { currency, currency_iso: currency, invoice_id: fieldText(s, 'number') };
    const invoiced = fieldText(s, 'created_at');
    const paid = laterBy(invoiced, HOUR_MS);
    balance = cents(balance - amount);
    rows.push({
      id: Number(s.id) * 2 - 1,
      date: invoiced,
      created_at: invoiced,
      type: 'invoice',
      description: `Invoice ${common.invoice_id}`,
      amount: cents(-amount),
      balance,
      result: paid > now ? PENDING : COMPLETED,
      ...common,
    });
    if (paid > now) continue;
    balance = cents(balance + amount);
    rows.push({
      id: Number(s.id) * 2,
      date: paid,
      created_at: paid,
      type: 'payment',
      description: `Direct debit for invoice ${common.invoice_id}`,
      amount: cents(amount),
      balance,
      result: COMPLETED,
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

function transaction(call: AuthedCall): Row {
  const id = Number(call.params.id ?? '');
  const tx = ledger(call).find((r) => r.id === id);
  if (tx === undefined) throw notFound('transactions id');
  return tx;
}

/** GET /transactions/{id}: one ledger entry. */
function getTransaction(call: AuthedCall): ReturnType<RouteDef['handle']> {
  return single(transaction(call), `${call.baseUrl}/transactions/${String(call.params.id)}`);
}

/** GET /transactions/{id}.pdf: the PDF of a completed transaction (its invoice); 409 while pending. */
function transactionPdf(call: AuthedCall): ReturnType<RouteDef['handle']> {
  const tx = transaction(call);
  if (tx.result !== COMPLETED) {
    throw new HttpError(409, `Transaction ${String(tx.id)} is not completed yet`, [
      'id: the transaction is not completed yet',
    ]);
  }
  return invoicePdf(call, tx);
}

/** GET /transactions/{id}/invoice: the PDF of the invoice a transaction belongs to, paid or not. */
function invoice(call: AuthedCall): ReturnType<RouteDef['handle']> {
  return invoicePdf(call, transaction(call));
}

/** The invoice's PDF: its number, period and the statement's totals. */
function invoicePdf(call: AuthedCall, tx: Row): ReturnType<RouteDef['handle']> {
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

/** GET /transactions, GET /transactions/{id}, its .pdf and GET /transactions/{id}/invoice. */
export function transactionRoutes(): RouteDef[] {
  return [
    { ...parseRouteSpec('GET /transactions'), auth: 'required', handle: listTransactions },
    { ...parseRouteSpec('GET /transactions/{id}'), auth: 'required', handle: getTransaction },
    { ...parseRouteSpec('GET /transactions/{id}.pdf'), auth: 'required', handle: transactionPdf },
    { ...parseRouteSpec('GET /transactions/{id}/invoice'), auth: 'required', handle: invoice },
  ];
}
