import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestEnv } from './harness';

/**
 * The official SDK client connected to the in-process app: its requests go through the whole platform (auth,
 * limits, the transport guard) exactly as over the network, without a listening socket.
 */
export async function mcpClient(env: TestEnv, key: string, opts: { path?: string; ip?: string; headers?: Record<string, string>; protocolVersion?: string } = {}) {
  const path = opts.path ?? '/mcp';
  const fetchLike = async (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-for', opts.ip ?? '10.9.9.9');
    for (const [k, v] of Object.entries(opts.headers ?? {})) headers.set(k, v);
    const u = new URL(url);
    return env.app.request(u.pathname + u.search, { ...init, headers });
  };
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1${path}`), {
    fetch: fetchLike as never,
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A tool result's JSON (structured on success; parsed from the text after `<code>: <message>\n` on error). */
export function toolJson(result: any): any {
  if (!result.isError) return result.structuredContent;
  const text: string = result.content[0].text;
  return JSON.parse(text.slice(text.indexOf('\n') + 1));
}

/** `tool(name, args)` on an SDK client: whether it is an error, its JSON and its first text item. */
export function toolCaller(mcp: Client) {
  return async (name: string, args: Record<string, unknown> = {}) => {
    const r = await mcp.callTool({ name, arguments: args });
    return { isError: Boolean(r.isError), json: toolJson(r), text: (r.content as Array<{ text: string }>)[0]?.text ?? '' };
  };
}
