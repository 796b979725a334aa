import { z } from 'zod';

// One parse of the environment (process.env under Node, the Worker's vars/secrets on Workers).
// Absent values choose the embedded adapters (operator.md §2); nothing here relaxes auth.
const bool = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const seconds = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (!v) return [60, 300, 1800];
    const parts = v.split(',').map((s) => Number(s.trim()));
    if (parts.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: 'WEBHOOK_RETRY_DELAYS must be a comma list of whole seconds' });
      return z.NEVER;
    }
    return parts;
  });

const ConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  UPSTASH_REDIS_REST_URL: z.string().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  QSTASH_URL: z.string().optional(),
  QSTASH_TOKEN: z.string().optional(),
  QSTASH_CURRENT_SIGNING_KEY: z.string().optional(),
  QSTASH_NEXT_SIGNING_KEY: z.string().optional(),
  // Links, cookies and CSRF origins are built from these: a value that is no http(s) URL fails at load, not per request.
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Browser origins allowed to call the tool server (comma list); any other Origin gets 403 (DNS rebinding).
  MCP_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim().replace(/\/$/, '')).filter(Boolean)),
  PORTAL_URL: z.url({ protocol: /^https?$/ }).optional(),
  ADMIN_TOKEN: z.string().optional(),
  ENCRYPTION_KEY: z.string().optional(),
  // The key being rotated out: still decrypts what it encrypted until `npm run secrets:rotate` has moved it.
  ENCRYPTION_KEY_PREVIOUS: z.string().optional(),
  WEBHOOK_RETRY_DELAYS: seconds,
  ALLOW_PRIVATE_WEBHOOK_URLS: bool,
  TRUST_PROXY: bool,
  AI_PROVIDER: z.string().optional(),
  AI_MODEL: z.string().optional(),
  AI_API_KEY: z.string().optional(),
  AI_BASE_URL: z.string().optional(),
  // Neon driver through a local WebSocket proxy (Neon's documented local-development setup).
  NEON_WS_PROXY: z.string().optional(),
  NEON_INSECURE_WS: bool,
  // Sending tools' API hosts (the per-organization `instantly` / `smartlead` providers); set only to reach a stand-in.
  INSTANTLY_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.instantly.ai'),
  SMARTLEAD_API_URL: z.url({ protocol: /^https?$/ }).default('https://server.smartlead.ai/api/v1'),
  // Studio ports (agency-operator.md §6): each defaults to its deterministic simulation (`sim`).
  SIM_SEED: z.string().min(1).default('sim'),
  // MX/SPF scan of imported leads' domains: the simulation, or DNS-over-HTTPS (RFC 8484 JSON API) at DOH_URL.
  DNS: z.enum(['sim', 'doh']).default('sim'),
  DOH_URL: z.url({ protocol: /^https?$/ }).default('https://cloudflare-dns.com/dns-query'),
  // The email waterfall's finders: the simulation, or Hunter's Email Finder/Verifier API (HUNTER_API_KEY).
  EMAIL_FINDER: z.enum(['sim', 'hunter']).default('sim'),
  HUNTER_API_KEY: z.string().optional(),
  HUNTER_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.hunter.io/v2'),
  // Leads out to a table tool: the simulation (rows in sim_table_posts), or real HTTP POSTs to the destination.
  TABLE_TOOL: z.enum(['sim', 'http']).default('sim'),
  // Company facts, vacancies and signals: the simulation, or PredictLeads' API v3 (key and token, both required).
  ENRICHMENT: z.enum(['sim', 'predictleads']).default('sim'),
  PREDICTLEADS_API_URL: z.url({ protocol: /^https?$/ }).default('https://predictleads.com/api/v3'),
  PREDICTLEADS_API_KEY: z.string().optional(),
  PREDICTLEADS_API_TOKEN: z.string().optional(),
  // Sending infrastructure (issue 17). Registrar: the simulation, or Porkbun's JSON API v3 (key and secret key).
  REGISTRAR: z.enum(['sim', 'porkbun']).default('sim'),
  PORKBUN_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.porkbun.com/api/json/v3'),
  PORKBUN_API_KEY: z.string().optional(),
  PORKBUN_SECRET_API_KEY: z.string().optional(),
  // DNS records of bought domains: the simulation, or Cloudflare's API v4 (an API token and the account id).
  DNS_RECORDS: z.enum(['sim', 'cloudflare']).default('sim'),
  CLOUDFLARE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.cloudflare.com/client/v4'),
  CLOUDFLARE_API_TOKEN: z.string().optional(),
  CLOUDFLARE_ACCOUNT_ID: z.string().optional(),
  // Mailboxes: the simulation, or Google Workspace's Admin SDK Directory API (an OAuth access token and customer id).
  MAILBOX_PROVIDER: z.enum(['sim', 'google']).default('sim'),
  GOOGLE_DIRECTORY_API_URL: z.url({ protocol: /^https?$/ }).default('https://admin.googleapis.com/admin/directory/v1'),
  GOOGLE_WORKSPACE_TOKEN: z.string().optional(),
  GOOGLE_WORKSPACE_CUSTOMER: z.string().default('my_customer'),
  // Warm-up and mailbox health: only the simulation so far.
  WARMUP: z.enum(['sim']).default('sim'),
  SEQUENCER: z.enum(['sim', 'instantly']).default('sim'),
  INSTANTLY_API_KEY: z.string().optional(),
  // Simulated time (agency-operator.md §6): `sim` keeps "now" in the database, moved only by POST /admin/v1/sim/clock.
  CLOCK: z.enum(['wall', 'sim']).default('wall'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof ConfigSchema> & { publicBaseUrl: string; portalUrl: string };

export function loadConfig(env: Record<string, unknown>): Config {
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string' && v !== '') strings[k] = v;
  const parsed = ConfigSchema.safeParse(strings);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`invalid configuration: ${first.path.join('.')}: ${first.message}`);
  }
  const c = parsed.data;
  const base = `http://${c.HOST}:${c.PORT}`;
  return {
    ...c,
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? base).replace(/\/$/, ''),
    portalUrl: (c.PORTAL_URL ?? `${base}/portal`).replace(/\/$/, ''),
  };
}
