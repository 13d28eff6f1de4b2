// The OData $filter subset the Dynamics 365 test server evaluates, as Dataverse does
// (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/query/filter-rows):
// comparison operators eq ne gt ge lt le, logical and / or / not with parentheses, the string query
// functions contains, startswith and endswith, Dataverse's query function
// Microsoft.Dynamics.CRM.In(PropertyName='…',PropertyValues=[…])
// (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/reference/in), and literals (strings in single quotes with '' for a
// quote, numbers, true, false, null, GUIDs and DateTimeOffset values unquoted). String comparisons ignore case, as Dataverse's
// database collation does. Anything else is refused as Dataverse refuses a filter it cannot parse
// (400, code 0x80060888).
export type Row = Record<string, unknown>;
export type Predicate = (row: Row) => boolean;

export class ODataSyntaxError extends Error {}

type Token = { t: 'id' | 'str' | 'num' | 'punc'; v: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) i++;
    else if ('(),=[]'.includes(ch)) {
      tokens.push({ t: 'punc', v: ch });
      i++;
    } else if (ch === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new ODataSyntaxError('unterminated string literal');
        if (text[i] === "'" && text[i + 1] === "'") {
          s += "'";
          i += 2;
        } else if (text[i] === "'") break;
        else s += text[i++];
      }
      i++;
      tokens.push({ t: 'str', v: s });
    } else {
      const m = /^[A-Za-z0-9_.:@/-]+/.exec(text.slice(i));
      if (!m) throw new ODataSyntaxError(`unexpected '${ch}'`);
      tokens.push({ t: /^-?\d+(\.\d+)?$/.test(m[0]) ? 'num' : 'id', v: m[0] });
      i += m[0].length;
    }
  }
  return tokens;
}

const COMPARE = new Set(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const FUNCTIONS = new Set(['contains', 'startswith', 'endswith']);
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function norm(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'string' ? v.toLowerCase() : v;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  const [x, y] = [norm(a), norm(b)];
  if (op === 'eq') return x === y || (x == null && y == null);
  if (op === 'ne') return !(x === y || (x == null && y == null));
  if (x == null || y == null) return false;
  const c = (x as number | string) < (y as number | string) ? -1 : x === y ? 0 : 1;
  return op === 'gt' ? c > 0 : op === 'ge' ? c >= 0 : op === 'lt' ? c < 0 : c <= 0;
}

/** Parses a $filter into a predicate over rows; `columns` are the names a row may be filtered on. */
export function parseFilter(text: string, columns: ReadonlySet<string>): Predicate {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const next = () => {
    const tok = tokens[pos++];
    if (!tok) throw new ODataSyntaxError('unexpected end of the filter');
    return tok;
  };
  const expect = (v: string) => {
    if (next().v !== v) throw new ODataSyntaxError(`expected '${v}'`);
  };
  const column = (name: string) => {
    if (!columns.has(name)) throw new ODataSyntaxError(`Could not find a property named '${name}'`);
    return name;
  };
  const literal = (): unknown => {
    const tok = next();
    if (tok.t === 'str') return tok.v;
    if (tok.t === 'num') return Number(tok.v);
    if (tok.v === 'true' || tok.v === 'false') return tok.v === 'true';
    if (tok.v === 'null') return null;
    if (GUID.test(tok.v)) return tok.v.toLowerCase();
    // A DateTimeOffset literal, unquoted (2026-11-27T10:00:00Z), as in modifiedon ge …: compared as
    // the instant it names (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/query/filter-rows).
    if (DATE_TIME.test(tok.v)) return new Date(tok.v).toISOString();
    throw new ODataSyntaxError(`expected a literal, found '${tok.v}'`);
  };
  const primary = (): Predicate => {
    const tok = next();
    if (tok.v === '(') {
      const inner = orExpr();
      expect(')');
      return inner;
    }
    if (tok.v === 'not') {
      const inner = primary();
      return (row) => !inner(row);
    }
    if (tok.v === 'Microsoft.Dynamics.CRM.In') {
      expect('(');
      if (next().v !== 'PropertyName') throw new ODataSyntaxError('In takes PropertyName first');
      expect('=');
      const name = column(String(literal()));
      expect(',');
      if (next().v !== 'PropertyValues') throw new ODataSyntaxError('In takes PropertyValues');
      expect('=');
      expect('[');
      const values: unknown[] = [literal()];
      while (peek()?.v === ',') {
        pos++;
        values.push(literal());
      }
      expect(']');
      expect(')');
      return (row) => values.some((v) => compare('eq', row[name], v));
    }
    if (FUNCTIONS.has(tok.v)) {
      expect('(');
      const name = column(next().v);
      expect(',');
      const arg = literal();
      expect(')');
      if (typeof arg !== 'string') throw new ODataSyntaxError(`${tok.v} takes a string`);
      const needle = arg.toLowerCase();
      return (row) => {
        const v = row[name];
        if (typeof v !== 'string') return false;
        const hay = v.toLowerCase();
        if (tok.v === 'contains') return hay.includes(needle);
        return tok.v === 'startswith' ? hay.startsWith(needle) : hay.endsWith(needle);
      };
    }
    const name = column(tok.v);
    const op = next().v;
    if (!COMPARE.has(op)) throw new ODataSyntaxError(`unknown operator '${op}'`);
    const value = literal();
    return (row) => compare(op, row[name], value);
  };
  const andExpr = (): Predicate => {
    let left = primary();
    while (peek()?.v === 'and') {
      pos++;
      const [l, r] = [left, primary()];
      left = (row) => l(row) && r(row);
    }
    return left;
  };
  const orExpr = (): Predicate => {
    let left = andExpr();
    while (peek()?.v === 'or') {
      pos++;
      const [l, r] = [left, andExpr()];
      left = (row) => l(row) || r(row);
    }
    return left;
  };
  const predicate = orExpr();
  if (pos !== tokens.length) throw new ODataSyntaxError(`unexpected '${peek()?.v}'`);
  return predicate;
}
