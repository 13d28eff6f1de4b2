// The configuration reference (docs/configuration.md), generated from the zod schema's source: every
// key of `configSchema` (config/schema.ts), its type, its default and its doc comment. The schema is
// read as TypeScript (the compiler API resolves each schema a key refers to, across files), since
// the doc comments that describe the keys are not in the runtime schema. `npm run docs:config`
// writes the file; test/unit/config-reference.test.ts fails when the committed one differs.
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '..');
const SCHEMA_FILE = join(root, 'config/schema.ts');
export const REFERENCE_FILE = join(root, 'docs/configuration.md');

interface Row {
  key: string;
  type: string;
  default: string;
  description: string;
}

/** What a schema expression says of the value it checks. */
interface Shape {
  type: string;
  default?: string;
  optional?: boolean;
  /** Keys of an object schema (with their own doc comments). */
  fields?: ts.ObjectLiteralElementLike[];
  /** Variants of a union of objects, each with its label (`type = "hubspot"`). */
  variants?: { label: string; shape: Shape }[];
  /** Element of an array. */
  element?: Shape;
}

// Chained calls that leave the type as it is.
const PASS_THROUGH = new Set([
  'refine',
  'superRefine',
  'transform',
  'describe',
  'meta',
  'check',
  'pipe',
  'brand',
]);
// Chained checks worth saying (`min(1)`, `max(65535)`, `regex(…)` as "pattern").
const CHECKS = new Set(['min', 'max', 'int', 'positive', 'nonnegative', 'length', 'regex', 'url', 'email']);

class Reader {
  private readonly checker: ts.TypeChecker;
  private readonly seen = new Set<ts.Node>();

  constructor(private readonly program: ts.Program) {
    this.checker = program.getTypeChecker();
  }

  rows(): Row[] {
    const source = this.program.getSourceFile(SCHEMA_FILE);
    if (!source) throw new Error(`cannot read ${SCHEMA_FILE}`);
    const decl = findVariable(source, 'configSchema');
    const rows: Row[] = [];
    this.walk(this.shape(decl.initializer!), '', rows);
    return rows;
  }

  private walk(shape: Shape, prefix: string, rows: Row[]): void {
    for (const field of shape.fields ?? []) {
      if (ts.isSpreadAssignment(field)) {
        this.walk(this.shape(field.expression), prefix, rows);
        continue;
      }
      if (!ts.isPropertyAssignment(field) && !ts.isShorthandPropertyAssignment(field)) continue;
      const name = field.name.getText();
      const key = prefix ? `${prefix}.${name}` : name;
      const value = ts.isPropertyAssignment(field) ? field.initializer : field.name;
      const inner = this.shape(value);
      rows.push({
        key,
        type: inner.type + (inner.optional && inner.default === undefined ? ' (optional)' : ''),
        default: inner.default ?? '',
        description: docOf(field),
      });
      this.walkInner(inner, key, rows);
    }
  }

  private walkInner(shape: Shape, key: string, rows: Row[]): void {
    if (shape.fields) this.walk(shape, key, rows);
    if (shape.element) this.walkInner(shape.element, `${key}[]`, rows);
    for (const v of shape.variants ?? []) this.walk(v.shape, `${key} (${v.label})`, rows);
  }

  private shape(node: ts.Expression): Shape {
    const expr = skipParens(node);
    if (ts.isIdentifier(expr) || ts.isPropertyAccessExpression(expr)) {
      const init = this.initializerOf(expr);
      if (init) return this.guarded(init, () => this.shape(init));
      return { type: expr.getText() };
    }
    if (ts.isArrowFunction(expr) && !ts.isBlock(expr.body)) return this.shape(expr.body);
    if (ts.isObjectLiteralExpression(expr)) return { type: 'object', fields: [...expr.properties] };
    if (!ts.isCallExpression(expr)) return { type: expr.getText() };
    const callee = expr.expression;
    if (ts.isPropertyAccessExpression(callee)) {
      const method = callee.name.text;
      const target = callee.expression;
      if (ts.isIdentifier(target) && target.text === 'z') return this.zodFactory(method, expr.arguments);
      const base = this.shape(target);
      if (method === 'default' || method === 'prefault') {
        const arg = expr.arguments[0];
        return arg && !isEmptyObject(arg) ? { ...base, default: this.valueText(arg) } : base;
      }
      if (method === 'optional' || method === 'nullish') return { ...base, optional: true };
      if (method === 'extend') {
        const more = expr.arguments[0] ? this.shape(expr.arguments[0]) : { type: 'object' };
        return { ...base, fields: [...(base.fields ?? []), ...(more.fields ?? [])] };
      }
      if (CHECKS.has(method)) return { ...base, type: withCheck(base.type, method, expr.arguments) };
      if (PASS_THROUGH.has(method)) return base;
      return base;
    }
    if (ts.isIdentifier(callee)) {
      if (callee.text === 'secret') return { type: 'secret: string, { "env": NAME } or { "file": path }' };
      // A schema-making function of ours (overridable(shape), …): its argument's keys, when an object.
      const arg = expr.arguments[0];
      if (arg) {
        const inner = this.shape(arg);
        if (inner.fields) return inner;
      }
    }
    return { type: expr.getText().split('\n')[0]! };
  }

  private zodFactory(method: string, args: ts.NodeArray<ts.Expression>): Shape {
    const [first, second] = args;
    switch (method) {
      case 'object':
      case 'strictObject':
      case 'looseObject':
        return { type: 'object', fields: first ? (this.shape(first).fields ?? []) : [] };
      case 'array':
        return {
          type: `list of ${first ? this.shape(first).type : '?'}`,
          element: first ? this.shape(first) : { type: '?' },
        };
      case 'enum':
        return { type: first ? `one of ${listOf(first)}` : 'enum' };
      case 'literal':
        return { type: first ? first.getText() : 'literal' };
      case 'lazy':
        return first ? this.shape(first) : { type: '?' };
      case 'record':
        return { type: `map of ${second ? this.shape(second).type : '?'}` };
      case 'union':
      case 'discriminatedUnion': {
        const list = method === 'union' ? first : second;
        if (!list || !ts.isArrayLiteralExpression(list)) return { type: 'union' };
        const shapes = list.elements.map((e) => this.shape(e));
        const discriminator = method === 'discriminatedUnion' && first ? unquote(first.getText()) : undefined;
        const variants = shapes
          .filter((s) => s.fields)
          .map((s) => ({ label: variantLabel(s, discriminator), shape: s }));
        const type = shapes.map((s) =>
          s.fields ? (discriminator ? variantLabel(s, discriminator) : 'object') : s.type,
        );
        return { type: [...new Set(type)].join(' or '), ...(variants.length > 0 ? { variants } : {}) };
      }
      case 'url':
        return { type: 'URL' };
      case 'email':
        return { type: 'e-mail address' };
      default:
        return { type: method };
    }
  }

  /** A default as written, a constant's name replaced by its literal value (`LOGIN_URL` → its URL). */
  private valueText(node: ts.Expression): string {
    const init = ts.isIdentifier(node) ? this.initializerOf(node) : undefined;
    const literal = init && (ts.isStringLiteral(init) || ts.isNumericLiteral(init)) ? init : node;
    return literal.getText().replace(/(\d)_(?=\d)/g, '$1');
  }

  private initializerOf(expr: ts.Expression): ts.Expression | undefined {
    let symbol = this.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expr) ? expr.name : expr);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const decl = symbol?.valueDeclaration;
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) return decl.initializer;
    if (decl && ts.isPropertyAssignment(decl)) return decl.initializer;
    return undefined;
  }

  private guarded(node: ts.Node, read: () => Shape): Shape {
    if (this.seen.has(node)) return { type: '(see above)' };
    this.seen.add(node);
    try {
      return read();
    } finally {
      this.seen.delete(node);
    }
  }
}

function findVariable(source: ts.SourceFile, name: string): ts.VariableDeclaration {
  let found: ts.VariableDeclaration | undefined;
  source.forEachChild(function visit(node) {
    if (ts.isVariableDeclaration(node) && node.name.getText() === name) found = node;
    node.forEachChild(visit);
  });
  if (!found) throw new Error(`${name} is not declared in ${SCHEMA_FILE}`);
  return found;
}

function skipParens(node: ts.Expression): ts.Expression {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e))
    e = e.expression;
  return e;
}

function isEmptyObject(node: ts.Expression): boolean {
  return ts.isObjectLiteralExpression(node) && node.properties.length === 0;
}

function unquote(text: string): string {
  return text.replace(/^['"`]|['"`]$/g, '');
}

function listOf(node: ts.Expression): string {
  if (!ts.isArrayLiteralExpression(node)) return node.getText();
  return node.elements.map((e) => `\`${unquote(e.getText())}\``).join(', ');
}

function withCheck(type: string, method: string, args: ts.NodeArray<ts.Expression>): string {
  if (method === 'regex') return `${type}, pattern`;
  if (method === 'url') return 'URL';
  if (method === 'email') return 'e-mail address';
  if (method === 'int') return type === 'number' ? 'integer' : type;
  const arg = args[0]?.getText().replace(/(\d)_(?=\d)/g, '$1');
  return arg === undefined ? `${type}, ${method}` : `${type}, ${method} ${arg}`;
}

function variantLabel(shape: Shape, discriminator: string | undefined): string {
  if (!discriminator) return 'object';
  for (const f of shape.fields ?? []) {
    if (ts.isPropertyAssignment(f) && f.name.getText() === discriminator) {
      const m = /z\.literal\((['"])(.*?)\1\)/.exec(f.initializer.getText());
      if (m) return `${discriminator} = "${m[2]}"`;
    }
  }
  return 'object';
}

/** A key's doc comment, on one line. */
function docOf(node: ts.Node): string {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join(' ');
  return text.replace(/\s+/g, ' ').trim();
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The reference's Markdown. */
export function configReference(): string {
  const program = ts.createProgram([SCHEMA_FILE], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const rows = new Reader(program).rows();
  const lines = [
    '# Configuration reference',
    '',
    `Generated from the schema (\`${relative(root, SCHEMA_FILE)}\` and what it uses) by \`npm run docs:config\`;`,
    'do not edit by hand. A test fails when this file and the schema differ.',
    '',
    'Every secret field takes `{ "env": "NAME" }` or `{ "file": "/path" }`; inline text only with',
    '`allowInlineSecrets` ([Secrets](configuring.md#secrets)). Durations are `500ms`, `30s`, `5m`, `1h`, `2d` or milliseconds.',
    'A key under `x (type = "y")` applies when `x.type` is `"y"`; `[]` marks a list\'s items.',
    '',
    '| Key | Type | Default | Description |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| \`${r.key}\` | ${cell(r.type)} | ${r.default ? `\`${cell(r.default)}\`` : ''} | ${cell(r.description)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

if (require.main === module) {
  writeFileSync(REFERENCE_FILE, configReference());
  process.stdout.write(`wrote ${relative(root, REFERENCE_FILE)}\n`);
}
