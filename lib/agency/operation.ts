import type { z } from 'zod';
import type { AuthContext } from '../auth/keys';
import type { Scope } from '../auth/scopes';
import type { Services } from '../services';

/** The toolsets a client may narrow the tool list to (agency-operator.md §2). */
export const TOOLSETS = ['account', 'campaigns', 'replies', 'recipes', 'infrastructure', 'leads', 'engine', 'plans', 'signals'] as const;
export type Toolset = (typeof TOOLSETS)[number] | 'crm';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who calls an operation and through which face: the audit actor is `mcp:<key name>` or `key:<key name>`. */
export type AgencyCall = {
  services: Services;
  auth: AuthContext;
  via: 'rest' | 'mcp';
  actor: string;
  now: Date;
  requestId?: string;
};

export const actorOf = (auth: Pick<AuthContext, 'keyName'>, via: 'rest' | 'mcp') => `${via === 'mcp' ? 'mcp' : 'key'}:${auth.keyName}`;

/** What an operation answers: the JSON body and its HTTP status (200 unless said). */
export type OperationResult = { status?: 200 | 201 | 202; body: Record<string, unknown> };

/**
 * One agency operation, defined once and served twice: as a REST route (functions/agency) and as an MCP tool
 * (functions/mcp). `input` is the tool's arguments: the route's path parameters, query and body fields merged.
 */
export type Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = {
  name: string;
  method: HttpMethod;
  /** OpenAPI-style path, `{client_id}` for path parameters. */
  path: string;
  /** The path parameters among `input`'s fields, in path order. */
  pathParams: readonly string[];
  scope: Scope;
  toolset: Toolset;
  /** Needs the organization's Studio module. */
  studio: boolean;
  /** Changes state: refused to audit (read-only) keys and in demo organizations. */
  write: boolean;
  /** Two steps: a preview and a confirm_token first (lib/agency/confirm.ts). */
  twoStep: boolean;
  /** Charges credits when confirmed. */
  paid: boolean;
  /** Its effect leaves the service (registrar, mailbox provider, sequencer, finder, enrichment). */
  openWorld: boolean;
  /** A write whose repeat leaves things as the first call left them (MCP idempotentHint, no destructiveHint). */
  idempotent: boolean;
  /** `core`: the REST face is a core route that already exists (the reply tools); the tool calls the same verb. */
  rest: 'agency' | 'core';
  /** A REST route with no tool of its own (an alias the spec names, e.g. PUT /clients/{id}/auto-write). */
  restOnly: boolean;
  summary: string;
  /** Tool description: the summary plus what a model needs to call it well. */
  description: string;
  input: I;
  output: O;
  run: (call: AgencyCall, input: z.infer<I>) => Promise<OperationResult>;
};

/** MCP tool annotations from an operation's flags (agency-operator.md §2 "Listing"). */
export function annotationsOf(op: Operation) {
  if (!op.write) return { readOnlyHint: true, openWorldHint: op.openWorld };
  return op.idempotent
    ? { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: op.openWorld }
    : { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: op.openWorld };
}
