import { scalarUrl } from './docs_assets';

// The /docs page: Scalar's API reference (grouped by tag, request and response examples, a request client) over
// this service's own /openapi.json, with its script served from here. No inline script (the page's CSP allows
// scripts from its own origin only) and nothing fetched from elsewhere: no web fonts, no telemetry, no AI agent,
// no request proxy (the client calls this origin directly).
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  hideModels: false,
  authentication: { preferredSecurityScheme: 'ServiceKey' },
  persistAuth: false, // a key typed into the page is not written to the browser's storage
  // The document names no server (every Worker serves its own); '/' is resolved to the page's origin, so the
  // examples and the request client show and call this service's address.
  servers: [{ url: '/', description: 'this service' }],
};

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

export function renderDocsPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript><p>This API reference needs JavaScript. The OpenAPI 3.1 document is at <a href="/openapi.json">/openapi.json</a>.</p></noscript>
<script id="api-reference" type="application/json" data-url="/openapi.json" data-configuration="${esc(JSON.stringify(CONFIGURATION))}"></script>
<script src="${esc(scalarUrl())}"></script>
</body>
</html>
`;
}
