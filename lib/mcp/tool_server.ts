import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { AuthContext } from '../auth/keys';
import type { AgencyCall, Operation } from '../agency/operation';
import { errorAnswer } from '../http/errors';
import { validationError } from '../http/validation';
import type { Logger } from '../log';
import { buildToolDefs, toolsFor, type ListingFilter, type ToolDef } from './tool_list';

export const SERVER_INSTRUCTIONS = [
  "This server runs an agency's account in the reply-handling service: clients, playbooks, campaigns and, with the",
  "key's reply scopes, the answers to prospects' replies. Tools only list what this key may use.",
  '',
  'Two-step tools (their description says so) never change anything on the first call: it returns',
  '{ preview, confirm_token, expires_at, credits }. Show the preview to the person you work for. To apply it, call',
  'the same tool again with exactly the same arguments plus confirm_token. A token works once, for 15 minutes, for',
  'this key, tool and arguments only. If confirm_token is null, blocked_by names why it cannot be confirmed.',
  'preview_stale means the state changed: the error carries a fresh preview and token; show it again before confirming.',
  '',
  'Errors come back as tool errors whose text starts with `<code>: <message>`; validation_error names the argument.',
  'Reads and setup cost no credits; paid tools state their credits in the preview.',
].join('\n');

export type ToolServerOptions = {
  ops: readonly Operation[];
  name: string;
  version: string;
  instructions: string;
  /** The refusals before validation, in the spec's order (the agency gate, or the CRM API's). */
  gate: (op: Operation, auth: AuthContext) => void;
  /** Whether tools/list shows the tool to this key. */
  mayList: (op: Operation, auth: AuthContext) => boolean;
};

// The protocol server validates only what it asks a client for (elicitation, which these servers never use), yet
// builds a validator in its constructor: one per process instead of one per request (0.4 ms each, measured).
const sharedValidator = new AjvJsonSchemaValidator();

/** A JSON-RPC error the SDK passes on as is (its McpError would prefix the message with "MCP error -32602: "). */
const invalidParams = (message: string) => Object.assign(new Error(message), { code: ErrorCode.InvalidParams });

/** One tool server (the agency one, the CRM one): its tool list built once, served statelessly per request. */
export class ToolServer {
  readonly defs: Map<string, ToolDef>;
  private readonly byName: Map<string, Operation>;
  constructor(readonly opts: ToolServerOptions) {
    this.defs = buildToolDefs(opts.ops);
    this.byName = new Map(opts.ops.map((op) => [op.name, op]));
  }

  /**
   * Answers one POST. Stateless: a new protocol server and transport per request (a stateless transport cannot
   * be reused); what is costly (schemas) is built once in the constructor. `body`: the request's text, which the
   * platform's middlewares have already read from the stream.
   */
  async handle(req: Request, body: string, ctx: { call: AgencyCall; filter: ListingFilter; log: Logger; path: string }): Promise<Response> {
    const parsed = parseJson(body);
    const malformed = parsed.ok ? malformedToolCall(parsed.value) : null;
    if (malformed) return Response.json(malformed, { status: 200 });
    const server = new Server({ name: this.opts.name, version: this.opts.version }, {
      capabilities: { tools: { listChanged: false } },
      instructions: this.opts.instructions,
      jsonSchemaValidator: sharedValidator,
    });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolsFor(this.opts.ops, this.defs, ctx.call.auth, ctx.filter, this.opts.mayList) as never }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => this.callTool(request.params.name, request.params.arguments, ctx));
    const accept = req.headers.get('accept') ?? '';
    // JSON unless the client accepts only an event stream; the SDK insists on both in Accept, so say both to it.
    const jsonResponse = accept.includes('application/json') || !accept.includes('text/event-stream');
    const headers = new Headers(req.headers);
    headers.set('accept', 'application/json, text/event-stream');
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: jsonResponse });
    await server.connect(transport);
    try {
      // Parsed once here; unparseable text goes to the transport, which answers its parse error (-32700).
      return parsed.ok
        ? await transport.handleRequest(new Request(req.url, { method: req.method, headers }), { parsedBody: parsed.value })
        : await transport.handleRequest(new Request(req.url, { method: req.method, headers, body }));
    } finally {
      if (jsonResponse) await server.close();
    }
  }

  private async callTool(name: string, args: Record<string, unknown> | undefined, ctx: { call: AgencyCall; log: Logger; path: string }) {
    const op = this.byName.get(name);
    if (!op) throw invalidParams(`unknown tool: ${name}`);
    try {
      this.opts.gate(op, ctx.call.auth);
      const parsed = op.input.safeParse(args ?? {});
      if (!parsed.success) throw validationError(parsed.error, 'arguments');
      const result = await op.run(ctx.call, parsed.data as never);
      return { content: [{ type: 'text' as const, text: JSON.stringify(result.body) }], structuredContent: result.body };
    } catch (err) {
      const a = errorAnswer(err, ctx.call.requestId ?? 'unknown', ctx.path, ctx.log);
      // No structuredContent: clients check it against the outputSchema, which describes success.
      return { isError: true, content: [{ type: 'text' as const, text: `${a.code}: ${a.message}\n${JSON.stringify(a.body)}` }] };
    }
  }
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A tools/call whose params are not a tool name and an argument object is invalid params (-32602) per JSON-RPC.
 * The SDK would answer its own schema failure as an internal error (-32603), which tells a client the server broke.
 */
function malformedToolCall(message: unknown): Record<string, unknown> | null {
  if (!isPlainObject(message)) return null;
  const m = message as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
  if (m.method !== 'tools/call') return null;
  const problem = !isPlainObject(m.params)
    ? 'params: must be an object with the tool name and its arguments'
    : typeof m.params!.name !== 'string'
      ? 'params.name: must be the name of a tool'
      : m.params!.arguments !== undefined && !isPlainObject(m.params!.arguments)
        ? 'params.arguments: must be an object of named arguments'
        : null;
  return problem ? { jsonrpc: '2.0', id: m.id ?? null, error: { code: ErrorCode.InvalidParams, message: problem } } : null;
}

export type { AuthContext };
