import { z } from 'zod';
import type { AuthContext } from '../auth/keys';
import { ApiError } from '../errors';
import { annotationsOf, TOOLSETS, type Operation, type Toolset } from '../agency/operation';

// The listing is read by a model at the start of every conversation: all 93 tools must fit in 25,000 tokens
// (o200k_base; test/agency/tool_budget.test.ts). So each schema says what a caller needs and nothing twice.
// Validation is unchanged by any of this: arguments are checked by the zod schemas, not by this text.

export type ToolDef = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ReturnType<typeof annotationsOf>;
};

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * One constraint said once: no `pattern` beside a `format` (zod writes both for uuids and dates), no integer
 * bounds of ±2^53 (zod's default for `.int()`), no `propertyNames: { type: string }` (JSON keys are strings) and
 * no `additionalProperties: {}` (anything, the default). A boolean argument reads `true`/`false` from a REST query
 * string too (lib/agency/args.ts boolArg); a tool call sends JSON, so the listing says boolean. A nullable type
 * is `type: [t, "null"]` rather than an anyOf of two schemas.
 */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!isNode(node)) return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'pattern' && 'format' in node) continue;
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    if (k === 'propertyNames' && isNode(v) && v.type === 'string' && Object.keys(v).length === 1) continue;
    if (k === 'additionalProperties' && isNode(v) && Object.keys(v).length === 0) continue;
    out[k] = compact(v);
  }
  const alts = out.anyOf;
  if (Array.isArray(alts) && alts.length === 2 && alts.every(isNode)) {
    const [a, b] = alts as Node[];
    const only = (n: Node, ...keys: string[]) => Object.keys(n).every((k) => keys.includes(k));
    if (a.type === 'boolean' && only(a, 'type') && b.type === 'string' && only(b, 'type', 'enum') && String(b.enum) === 'true,false') {
      delete out.anyOf;
      return { type: 'boolean', ...out };
    }
    const nul = b.type === 'null' && only(b, 'type') ? a : a.type === 'null' && only(a, 'type') ? b : null;
    if (nul && typeof nul.type === 'string') {
      delete out.anyOf;
      const merged: Node = { ...nul, ...out, type: [nul.type, 'null'] };
      if (Array.isArray(nul.enum)) merged.enum = [...nul.enum, null];
      return merged;
    }
  }
  return out;
}

/** The JSON types a schema admits, as one `type` value (a name or a list), or none when it says no type. */
function typesOf(s: Node): string | string[] | undefined {
  const set = new Set<string>();
  const visit = (n: unknown) => {
    if (!isNode(n)) return;
    if (typeof n.type === 'string') set.add(n.type);
    else if (Array.isArray(n.type)) for (const t of n.type) set.add(String(t));
    else if (n.const !== undefined) set.add(n.const === null ? 'null' : typeof n.const === 'number' ? 'number' : typeof n.const);
    else if (Array.isArray(n.anyOf ?? n.oneOf)) for (const a of (n.anyOf ?? n.oneOf) as unknown[]) visit(a);
    else set.add('*');
  };
  visit(s);
  if (set.has('*') || set.size === 0) return undefined;
  if (set.has('integer') && set.has('number')) set.delete('integer');
  const list = [...set];
  return list.length === 1 ? list[0] : list;
}

/**
 * A result's schema, one level deep: the envelope's keys (one per resource, agency-operator.md §4), each with
 * its JSON type and description, and which are always there; what is inside each resource is open. The full
 * shapes took two thirds of the listing's tokens and are the REST responses' (in the OpenAPI document), the
 * tools' descriptions and the docs name the fields that matter. Open at every level, it accepts every real
 * result the full shape accepted, so clients that check structuredContent against it still pass.
 */
function envelope(schema: Node): Node {
  const alts = schema.anyOf ?? schema.oneOf;
  // A two-step tool's answer: its preview envelope or, confirmed, its result (agency-operator.md §3).
  if (Array.isArray(alts) && !schema.properties) {
    const branches = new Map<string, Node>();
    for (const a of alts.filter(isNode)) {
      const { type: _, ...branch } = envelope(a); // the root says object
      branches.set(JSON.stringify(branch), branch); // unions of shapes alike one level deep say it once
    }
    return branches.size === 1 ? { type: 'object', ...[...branches.values()][0] } : { type: 'object', anyOf: [...branches.values()] };
  }
  const props: Node = {};
  for (const [k, v] of Object.entries(isNode(schema.properties) ? schema.properties : {})) {
    if (!isNode(v)) continue;
    const type = typesOf(v);
    props[k] = { ...(type ? { type } : {}), ...(typeof v.description === 'string' ? { description: v.description } : {}) };
  }
  const out: Node = { type: 'object', properties: props };
  if (Array.isArray(schema.required) && schema.required.length) out.required = schema.required;
  return out;
}

/** MCP wants an object schema at the root; zod writes `$schema`, which says nothing to a client. */
function objectRoot(schema: Node): Node {
  const { $schema: _, ...rest } = schema;
  return rest.type === 'object' ? rest : { type: 'object', ...rest };
}

export const inputSchemaOf = (op: Operation): Node =>
  objectRoot(compact(z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' })) as Node);
export const outputSchemaOf = (op: Operation): Node =>
  envelope(objectRoot(z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as Node));

/**
 * The listing entry of each tool, built once per process from the operation's zod definitions. No `title`: it
 * would only repeat the name with spaces (MCP makes it optional).
 */
export function buildToolDefs(ops: readonly Operation[]): Map<string, ToolDef> {
  const defs = new Map<string, ToolDef>();
  for (const op of ops) {
    defs.set(op.name, { name: op.name, description: op.description, inputSchema: inputSchemaOf(op), outputSchema: outputSchemaOf(op), annotations: annotationsOf(op) });
  }
  return defs;
}

export type ListingFilter = { toolsets: Set<Toolset> | null; readonly: boolean };

/** `X-MCP-Toolsets` / `?toolsets=` (comma list) and `?readonly=1`; an unknown toolset name is a 400. */
export function listingFilter(toolsetsText: string | undefined, readonlyText: string | undefined): ListingFilter {
  let toolsets: Set<Toolset> | null = null;
  if (toolsetsText !== undefined && toolsetsText.trim() !== '') {
    const names = toolsetsText.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(TOOLSETS as readonly string[]).includes(n));
    if (unknown.length) throw new ApiError('validation_error', `toolsets: unknown toolset ${unknown.join(', ')}; known: ${TOOLSETS.join(', ')}`);
    toolsets = new Set(names as Toolset[]);
  }
  if (readonlyText !== undefined && !['0', '1', 'true', 'false'].includes(readonlyText)) {
    throw new ApiError('validation_error', 'readonly: must be 1 or 0');
  }
  return { toolsets, readonly: readonlyText === '1' || readonlyText === 'true' };
}

/** The tools a key sees: those it may use, narrowed by the request's toolsets and read-only choice. */
export function toolsFor(
  ops: readonly Operation[],
  defs: Map<string, ToolDef>,
  auth: AuthContext,
  filter: ListingFilter,
  mayList: (op: Operation, auth: AuthContext) => boolean,
): ToolDef[] {
  const out: ToolDef[] = [];
  for (const op of ops) {
    if (!mayList(op, auth)) continue;
    if (filter.toolsets && !filter.toolsets.has(op.toolset)) continue;
    if (filter.readonly && op.write) continue;
    out.push(defs.get(op.name)!);
  }
  return out;
}
