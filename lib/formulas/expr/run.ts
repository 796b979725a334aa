// Walks a parsed expression over one lead's values. Lead data is messy, so the language is forgiving where a
// spreadsheet is: a missing field is null, null + text is the text, a comparison with null is false, a division by
// zero is null; but a call of an unknown function or with the wrong number of arguments is refused when the
// formula is checked (checkExpression), not at run time.
import { countryOf, greetingFor } from './countries';
import { cleanCompany, departmentOf, domainOf, isFreemail, isGenericEmail, nameCase, seniorityOf, sizeBand } from './lead_text';
import { ExpressionError, namesIn, parseExpression, type Node } from './parse';

export type Value = string | number | boolean | null | Value[];
export type Scope = { get(name: string): Value; now: Date };

const MAX_TEXT = 5000;

const isEmpty = (v: Value) => v === null || v === '' || (Array.isArray(v) && v.length === 0);
export const truthy = (v: Value) => !(isEmpty(v) || v === false || v === 0);

export function asText(v: Value): string {
  if (v === null) return '';
  if (Array.isArray(v)) return v.map(asText).filter(Boolean).join(', ');
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  return String(v);
}

function asNumber(v: Value): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const t = v.trim().replace(/[,_\s]/g, '');
    return t !== '' && /^[-+]?\d*\.?\d+(e[-+]?\d+)?$/i.test(t) ? Number(t) : null;
  }
  return null;
}

const text = (v: Value) => asText(v).slice(0, MAX_TEXT);
const str = (f: (s: string) => Value) => (v: Value) => (isEmpty(v) ? null : f(asText(v)));
const lowerList = (v: Value): string[] => (Array.isArray(v) ? v.map((x) => asText(x).toLowerCase()) : [asText(v).toLowerCase()]);

function containsText(hay: Value, needle: Value): boolean {
  if (isEmpty(hay) || isEmpty(needle)) return false;
  const n = asText(needle).toLowerCase();
  return Array.isArray(hay) ? lowerList(hay).includes(n) : asText(hay).toLowerCase().includes(n);
}

type Fn = { min: number; max: number; run: (args: Value[], scope: Scope) => Value; doc: string };
const fn = (min: number, max: number, doc: string, run: Fn['run']): Fn => ({ min, max, doc, run });
const VARIADIC = 20;

/** Every function an expression may call, with a one-line description (find_formulas and docs/formulas.md show them). */
export const FUNCTIONS: Record<string, Fn> = {
  lower: fn(1, 1, 'lower case text', ([v]) => str((s) => s.toLowerCase())(v)),
  upper: fn(1, 1, 'upper case text', ([v]) => str((s) => s.toUpperCase())(v)),
  trim: fn(1, 1, 'text without surrounding spaces', ([v]) => str((s) => s.trim().replace(/\s+/g, ' '))(v)),
  len: fn(1, 1, 'length of a text or a list', ([v]) => (v === null ? 0 : Array.isArray(v) ? v.length : asText(v).length)),
  concat: fn(1, VARIADIC, 'the texts joined', (args) => text(args.map(asText).join(''))),
  join: fn(1, 2, 'a list joined with a separator (default ", ")', ([v, sep]) => (Array.isArray(v) ? text(v.map(asText).filter(Boolean).join(sep === undefined ? ', ' : asText(sep))) : v)),
  coalesce: fn(1, VARIADIC, 'the first value that is not empty', (args) => args.find((a) => !isEmpty(a)) ?? null),
  if: fn(2, 3, 'if(test, then, else)', ([c, a, b]) => (truthy(c) ? a : (b ?? null))),
  is_empty: fn(1, 1, 'true when the value is null, empty text or an empty list', ([v]) => isEmpty(v)),
  contains: fn(2, 2, 'case-insensitive: text contains text, or a list holds an item', ([h, n]) => containsText(h, n)),
  contains_any: fn(2, 2, 'contains any item of a list', ([h, list]) => (Array.isArray(list) ? list : [list]).some((n) => containsText(h, n))),
  starts_with: fn(2, 2, 'case-insensitive prefix test', ([v, p]) => !isEmpty(v) && asText(v).toLowerCase().startsWith(asText(p).toLowerCase())),
  ends_with: fn(2, 2, 'case-insensitive suffix test', ([v, p]) => !isEmpty(v) && asText(v).toLowerCase().endsWith(asText(p).toLowerCase())),
  replace: fn(3, 3, 'replace every occurrence of a text (literally, not a pattern)', ([v, a, b]) => str((s) => (asText(a) ? text(s.split(asText(a)).join(asText(b))) : s))(v)),
  split_part: fn(3, 3, 'split_part(text, separator, n): the n-th part (1 = first)', ([v, sep, n]) => {
    const i = asNumber(n);
    if (isEmpty(v) || i === null || i < 1 || !asText(sep)) return null;
    return asText(v).split(asText(sep))[Math.floor(i) - 1]?.trim() || null;
  }),
  first_word: fn(1, 1, 'the first word', ([v]) => str((s) => s.trim().split(/\s+/)[0] || null)(v)),
  left: fn(2, 2, 'the first n characters', ([v, n]) => str((s) => s.slice(0, Math.max(0, asNumber(n) ?? 0)))(v)),
  title_case: fn(1, 1, 'Each Word Capitalised', ([v]) => str((s) => s.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase()))(v)),
  number: fn(1, 1, 'the value as a number (null when it is not one)', ([v]) => asNumber(v)),
  text: fn(1, 1, 'the value as text', ([v]) => (v === null ? null : text(v))),
  round: fn(1, 2, 'round(number, digits = 0)', ([v, d]) => {
    const n = asNumber(v);
    const f = 10 ** Math.min(6, Math.max(0, asNumber(d ?? 0) ?? 0));
    return n === null ? null : Math.round(n * f) / f;
  }),
  floor: fn(1, 1, 'round down', ([v]) => (asNumber(v) === null ? null : Math.floor(asNumber(v)!))),
  min: fn(1, VARIADIC, 'the smallest number', (args) => (args.map(asNumber).filter((n): n is number => n !== null).reduce<number | null>((m, n) => (m === null || n < m ? n : m), null))),
  max: fn(1, VARIADIC, 'the largest number', (args) => (args.map(asNumber).filter((n): n is number => n !== null).reduce<number | null>((m, n) => (m === null || n > m ? n : m), null))),
  year: fn(0, 0, "this year (the run's clock)", (_, scope) => scope.now.getUTCFullYear()),
  domain_of: fn(1, 1, 'the host of a URL, domain or email address, without www.', ([v]) => str(domainOf)(v)),
  is_freemail: fn(1, 1, 'true for a freemail address or domain (gmail.com, gmx.de, …)', ([v]) => (isEmpty(v) ? null : isFreemail(asText(v)))),
  is_generic_email: fn(1, 1, 'true for a function address (info@, sales@, hello@ …)', ([v]) => (isEmpty(v) ? null : isGenericEmail(asText(v)))),
  clean_company: fn(1, 1, 'a company name without its legal form (Inc., GmbH, B.V., …)', ([v]) => str(cleanCompany)(v)),
  name_case: fn(1, 1, "a person's name in proper case (O'Neil, van der Berg)", ([v]) => str(nameCase)(v)),
  seniority: fn(1, 1, 'c_level, owner, vp, director, manager, entry or individual, from a job title', ([v]) => str(seniorityOf)(v)),
  department: fn(1, 1, 'sales, marketing, engineering, … or other, from a job title', ([v]) => str(departmentOf)(v)),
  size_band: fn(1, 1, 'an employee count as a band (1-10, 11-50, … 5000+)', ([v]) => (asNumber(v) === null ? null : sizeBand(asNumber(v)!))),
  country_code: fn(1, 1, 'ISO code of a country name or code', ([v]) => str((s) => countryOf(s)?.code ?? null)(v)),
  country_timezone: fn(1, 1, "a country's (main business) IANA timezone", ([v]) => str((s) => countryOf(s)?.tz ?? null)(v)),
  country_language: fn(1, 1, "a country's main language code (en, de, nl, …)", ([v]) => str((s) => countryOf(s)?.lang ?? null)(v)),
  greeting: fn(1, 2, 'greeting(first_name, country): "Hallo Anna," in the language of the country', ([n, c]) => (isEmpty(n) ? null : greetingFor(nameCase(asText(n)), isEmpty(c ?? null) ? null : asText(c)))),
};

/** Parses and checks an expression: its syntax and every call (a known function, a fitting number of arguments). */
export function checkExpression(src: string): { tree: Node; fields: string[] } {
  const tree = parseExpression(src);
  const walk = (n: Node): void => {
    if (n.t === 'call') {
      const f = FUNCTIONS[n.fn];
      if (!f) throw new ExpressionError(`unknown function ${n.fn}(); the functions are ${Object.keys(FUNCTIONS).join(', ')}`);
      if (n.args.length < f.min || n.args.length > f.max) {
        throw new ExpressionError(`${n.fn}() takes ${f.min === f.max ? f.min : `${f.min} to ${f.max}`} argument${f.max === 1 ? '' : 's'}, not ${n.args.length}`);
      }
      n.args.forEach(walk);
    } else if (n.t === 'list') n.items.forEach(walk);
    else if (n.t === 'unary') walk(n.arg);
    else if (n.t === 'bin') {
      walk(n.l);
      walk(n.r);
    } else if (n.t === 'cond') [n.test, n.then, n.else].forEach(walk);
  };
  walk(tree);
  return { tree, fields: [...namesIn(tree).fields] };
}

function compare(op: string, a: Value, b: Value): boolean {
  if (a === null || b === null) return false;
  const x = asNumber(a);
  const y = asNumber(b);
  if (typeof a === 'number' || typeof b === 'number') {
    if (x === null || y === null) return false;
    return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
  }
  const s = asText(a).toLowerCase();
  const t = asText(b).toLowerCase();
  return op === '<' ? s < t : op === '<=' ? s <= t : op === '>' ? s > t : s >= t;
}

function equal(a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b || (a === null && b === '') || (a === '' && b === null);
  if (typeof a === 'number' || typeof b === 'number') return asNumber(a) !== null && asNumber(a) === asNumber(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  return asText(a).toLowerCase() === asText(b).toLowerCase();
}

function arith(op: string, a: Value, b: Value): Value {
  if (op === '+' && (typeof a === 'string' || typeof b === 'string' || Array.isArray(a) || Array.isArray(b))) return text(asText(a) + asText(b));
  const x = asNumber(a);
  const y = asNumber(b);
  if (x === null || y === null) return null;
  if ((op === '/' || op === '%') && y === 0) return null;
  const r = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x % y;
  return Number.isFinite(r) ? r : null;
}

/** The value of a checked tree over a scope. Never throws for data: only for a tree checkExpression refused. */
export function evaluate(n: Node, scope: Scope): Value {
  switch (n.t) {
    case 'lit':
      return n.v;
    case 'field':
      return scope.get(n.name);
    case 'list':
      return n.items.map((i) => evaluate(i, scope));
    case 'unary': {
      const v = evaluate(n.arg, scope);
      return n.op === '!' ? !truthy(v) : asNumber(v) === null ? null : -asNumber(v)!;
    }
    case 'cond':
      return truthy(evaluate(n.test, scope)) ? evaluate(n.then, scope) : evaluate(n.else, scope);
    case 'call': {
      const f = FUNCTIONS[n.fn];
      if (!f) throw new ExpressionError(`unknown function ${n.fn}()`);
      // if() evaluates only the branch it takes, like the ternary.
      if (n.fn === 'if') return truthy(evaluate(n.args[0], scope)) ? evaluate(n.args[1], scope) : n.args[2] ? evaluate(n.args[2], scope) : null;
      return f.run(n.args.map((a) => evaluate(a, scope)), scope);
    }
    case 'bin': {
      if (n.op === '&&') {
        const l = evaluate(n.l, scope);
        return truthy(l) ? truthy(evaluate(n.r, scope)) : false;
      }
      if (n.op === '||') {
        const l = evaluate(n.l, scope);
        return truthy(l) ? true : truthy(evaluate(n.r, scope));
      }
      if (n.op === '??') {
        const l = evaluate(n.l, scope);
        return isEmpty(l) ? evaluate(n.r, scope) : l;
      }
      const l = evaluate(n.l, scope);
      const r = evaluate(n.r, scope);
      switch (n.op) {
        case '==':
          return equal(l, r);
        case '!=':
          return !equal(l, r);
        case 'in':
          return Array.isArray(r) ? r.some((x) => equal(l, x)) : containsText(r, l);
        case '<':
        case '<=':
        case '>':
        case '>=':
          return compare(n.op, l, r);
        default:
          return arith(n.op, l, r);
      }
    }
  }
}
