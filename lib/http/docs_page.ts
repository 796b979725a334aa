// An API reference rendered on the server from the OpenAPI document: no script, no CDN, works offline
// and on Workers without shipping a multi-megabyte UI bundle.
type Doc = { info: { title: string; version: string; description?: string }; paths?: Record<string, Record<string, Operation>> };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
};

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
const json = (v: unknown) => `<pre>${esc(JSON.stringify(v, null, 2))}</pre>`;

function operation(path: string, method: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map((p) => `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : ''}</td><td><code>${esc(JSON.stringify(p.schema))}</code></td></tr>`)
    .join('');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries(op.responses ?? {})
    .map(([code, r]) => `<details><summary>${esc(code)} ${esc(r.description)}</summary>${r.content?.['application/json'] ? json(r.content['application/json'].schema) : ''}</details>`)
    .join('');
  const auth = (op.security ?? []).flatMap((s) => Object.keys(s)).join(', ') || 'none';
  return `<section id="${esc(method + path)}"><h3><span class="m ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}</p>${op.description ? `<p>${esc(op.description)}</p>` : ''}<p class="auth">auth: ${esc(auth)}</p>
${params ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>schema</th></tr>${params}</table>` : ''}
${body ? `<details><summary>request body</summary>${json(body)}</details>` : ''}${responses}</section>`;
}

export function renderDocsPage(doc: Doc): string {
  const ops = Object.entries(doc.paths ?? {}).flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ path, m, op })));
  const toc = ops.map(({ path, m }) => `<li><a href="#${esc(m + path)}">${esc(m.toUpperCase())} ${esc(path)}</a></li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}code,pre{font:13px ui-monospace,monospace}
pre{background:#f5f5f5;padding:.6em;overflow:auto}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left}
.m{display:inline-block;min-width:4.5em;font-size:12px;padding:.1em .4em;border-radius:3px;color:#fff;background:#555}.get{background:#2a7}.post{background:#27c}.patch{background:#c80}.put{background:#a5c}.delete{background:#c33}
section{border-top:1px solid #eee;padding-top:.5em}.auth{color:#666;font-size:13px}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p><ul>${toc}</ul>${ops.map(({ path, m, op }) => operation(path, m, op)).join('')}</body></html>`;
}
