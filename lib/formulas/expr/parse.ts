// The formula expression language: a tiny grammar parsed into a tree that run.ts walks. Cloudflare Workers forbid
// eval and new Function, and a formula is text an agency writes, so it is never compiled to JavaScript: there is no
// property access, no assignment and no loop, so every expression ends and reads nothing but the lead's fields.
//
//   expr    := coalesce ('?' expr ':' expr)?
//   coalesce:= or ('??' or)*
//   or      := and (('||' | 'or') and)*
//   and     := eq (('&&' | 'and') eq)*
//   eq      := cmp (('==' | '!=') cmp)*
//   cmp     := add (('<' | '<=' | '>' | '>=' | 'in') add)*
//   add     := mul (('+' | '-') mul)*
//   mul     := unary (('*' | '/' | '%') unary)*
//   unary   := ('!' | 'not' | '-') unary | primary
//   primary := number | string | true | false | null | name | name '(' args ')' | '(' expr ')' | '[' args ']'

export type Node =
  | { t: 'lit'; v: string | number | boolean | null }
  | { t: 'field'; name: string }
  | { t: 'call'; fn: string; args: Node[] }
  | { t: 'list'; items: Node[] }
  | { t: 'unary'; op: '!' | '-'; arg: Node }
  | { t: 'bin'; op: string; l: Node; r: Node }
  | { t: 'cond'; test: Node; then: Node; else: Node };

export const MAX_EXPRESSION_LENGTH = 2000;
const MAX_DEPTH = 40;

export class ExpressionError extends Error {}

type Tok = { k: 'num' | 'str' | 'name' | 'op' | 'end'; v: string; at: number };

const OPS = ['??', '||', '&&', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '(', ')', '[', ']', ','];

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/.exec(src.slice(i))!;
      out.push({ k: 'num', v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out.push({ k: 'name', v: m[0], at: i });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let s = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && j + 1 < src.length) {
          const e = src[j + 1];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          j += 2;
        } else s += src[j++];
      }
      if (j >= src.length) throw new ExpressionError(`a text starting at position ${i + 1} is not closed with ${c}`);
      out.push({ k: 'str', v: s, at: i });
      i = j + 1;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new ExpressionError(`unexpected character ${JSON.stringify(c)} at position ${i + 1}`);
    out.push({ k: 'op', v: op, at: i });
    i += op.length;
  }
  out.push({ k: 'end', v: '', at: src.length });
  return out;
}

const WORD_OPS: Record<string, string> = { and: '&&', or: '||', not: '!' };

/** Parses an expression; throws ExpressionError naming the problem and its position. */
export function parseExpression(src: string): Node {
  if (src.length > MAX_EXPRESSION_LENGTH) throw new ExpressionError(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const toks = tokenize(src).map((t) => (t.k === 'name' && t.v in WORD_OPS ? { ...t, k: 'op' as const, v: WORD_OPS[t.v] } : t));
  let p = 0;
  let depth = 0;
  const peek = () => toks[p];
  const isOp = (v: string) => peek().k === 'op' && peek().v === v;
  const where = (t: Tok) => (t.k === 'end' ? 'at the end' : `at position ${t.at + 1}`);
  const expect = (v: string) => {
    if (!isOp(v)) throw new ExpressionError(`expected ${JSON.stringify(v)} ${where(peek())}`);
    p++;
  };
  const deeper = <T>(fn: () => T): T => {
    if (++depth > MAX_DEPTH) throw new ExpressionError('the expression is nested too deeply');
    try {
      return fn();
    } finally {
      depth--;
    }
  };
  const binary = (ops: string[], next: () => Node) => (): Node => {
    let l = next();
    for (;;) {
      const t = peek();
      const op = t.k === 'op' && ops.includes(t.v) ? t.v : t.k === 'name' && t.v === 'in' && ops.includes('in') ? 'in' : null;
      if (!op) return l;
      p++;
      l = { t: 'bin', op, l, r: next() };
    }
  };
  const expr = (): Node =>
    deeper(() => {
      const test = coalesce();
      if (!isOp('?')) return test;
      p++;
      const then = expr();
      expect(':');
      return { t: 'cond', test, then, else: expr() };
    });
  const unary = (): Node =>
    deeper(() => {
      if (isOp('!') || isOp('-')) {
        const op = peek().v as '!' | '-';
        p++;
        return { t: 'unary', op, arg: unary() };
      }
      return primary();
    });
  const mul = binary(['*', '/', '%'], unary);
  const add = binary(['+', '-'], mul);
  const cmp = binary(['<', '<=', '>', '>=', 'in'], add);
  const eq = binary(['==', '!='], cmp);
  const and = binary(['&&'], eq);
  const or = binary(['||'], and);
  const coalesce = binary(['??'], or);
  const args = (close: string): Node[] => {
    const list: Node[] = [];
    if (isOp(close)) {
      p++;
      return list;
    }
    for (;;) {
      list.push(expr());
      if (isOp(',')) {
        p++;
        continue;
      }
      expect(close);
      return list;
    }
  };
  function primary(): Node {
    const t = peek();
    if (t.k === 'num') {
      p++;
      return { t: 'lit', v: Number(t.v) };
    }
    if (t.k === 'str') {
      p++;
      return { t: 'lit', v: t.v };
    }
    if (t.k === 'name') {
      p++;
      if (t.v === 'true' || t.v === 'false') return { t: 'lit', v: t.v === 'true' };
      if (t.v === 'null') return { t: 'lit', v: null };
      if (isOp('(')) {
        p++;
        return { t: 'call', fn: t.v, args: args(')') };
      }
      return { t: 'field', name: t.v };
    }
    if (isOp('(')) {
      p++;
      const inner = expr();
      expect(')');
      return inner;
    }
    if (isOp('[')) {
      p++;
      return { t: 'list', items: args(']') };
    }
    throw new ExpressionError(t.k === 'end' ? 'the expression ends too early' : `unexpected ${JSON.stringify(t.v)} ${where(t)}`);
  }
  const tree = expr();
  if (peek().k !== 'end') throw new ExpressionError(`unexpected ${JSON.stringify(peek().v)} ${where(peek())}`);
  return tree;
}

/** The lead fields an expression reads (its inputs candidates) and the functions it calls. */
export function namesIn(node: Node, acc = { fields: new Set<string>(), calls: new Set<string>() }) {
  switch (node.t) {
    case 'field':
      acc.fields.add(node.name);
      break;
    case 'call':
      acc.calls.add(node.fn);
      node.args.forEach((a) => namesIn(a, acc));
      break;
    case 'list':
      node.items.forEach((a) => namesIn(a, acc));
      break;
    case 'unary':
      namesIn(node.arg, acc);
      break;
    case 'bin':
      namesIn(node.l, acc);
      namesIn(node.r, acc);
      break;
    case 'cond':
      namesIn(node.test, acc);
      namesIn(node.then, acc);
      namesIn(node.else, acc);
      break;
  }
  return acc;
}
