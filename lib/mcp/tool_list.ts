import { z } from 'zod';
import type { AuthContext } from '../auth/keys';
import { ApiError } from '../errors';
import { annotationsOf, TOOLSETS, type Operation, type Toolset } from '../agency/operation';

export type ToolDef = {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: ReturnType<typeof annotationsOf>;
};

/** MCP wants an object schema at the root; a two-step tool's result is either of two objects. */
function objectRoot(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _, ...rest } = compact(schema) as Record<string, unknown>;
  return rest.type === 'object' ? rest : { type: 'object', ...rest };
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The listing is read by a model on every conversation, so it says each constraint once: a `pattern` next to a
 * `format` (zod writes both for uuids and dates) and integer bounds of ±2^53 (zod's default for `.int()`) add
 * tokens and no information. Validation is unchanged: it runs on the zod schemas, not on this text.
 */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'pattern' && 'format' in node) continue;
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    out[k] = compact(v);
  }
  return out;
}

const titleOf = (name: string) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The listing entry of each tool, built once per process from the operation's zod definitions. */
export function buildToolDefs(ops: readonly Operation[]): Map<string, ToolDef> {
  const defs = new Map<string, ToolDef>();
  for (const op of ops) {
    defs.set(op.name, {
      name: op.name,
      title: titleOf(op.name),
      description: op.description,
      inputSchema: objectRoot(z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>),
      outputSchema: objectRoot(z.toJSONSchema(op.output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>),
      annotations: annotationsOf(op),
    });
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
