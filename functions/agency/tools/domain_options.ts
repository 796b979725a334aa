import { z } from 'zod';
import { idArg, intArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { BUILTIN_PATTERNS, domainOptions, MAX_CHECKED } from '../../../lib/infra/domain_options';
import { patternArg, stemArg, tldArg } from '../../../lib/infra/domain_rule_schema';

/** A JSON list, or from a query string repeated `name=` values or one comma list. */
const listArg = <T extends z.ZodType<string, string>>(item: T, max: number) =>
  z
    .union([z.array(z.string()), z.string()])
    .transform((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v))
    .pipe(z.array(item).min(1).max(max))
    .transform((v) => [...new Set(v)]);

export const domainOptionsOp = defineOperation({
  name: 'domain_options',
  method: 'GET',
  path: '/v1/agency/clients/{client_id}/domain-options',
  scope: 'agency.read',
  toolset: 'infrastructure',
  studio: true,
  write: false,
  openWorld: true,
  summary: 'Available look-alike domains for the client, with their price, from stems or a pattern under the domain rule (reads only).',
  description:
    'Free look-alike domains for the client with their price: stems × patterns × TLDs from the call, else the domain rule, else the client name and built-in patterns. Owned names are skipped; names are asked at the registrar until `limit` (default 10) are free within max_price_cents. Buys and stores nothing: pass picks to choose_domains.',
  input: z
    .object({
      client_id: idArg('client'),
      stems: listArg(stemArg, 20).optional(),
      pattern: patternArg.optional(),
      tlds: listArg(tldArg, 10).optional(),
      limit: intArg(1, 50).optional(),
    })
    .strict(),
  output: z.object({
    options: z.array(z.object({ domain: z.string(), price_cents: z.number().int(), available: z.boolean() })),
    checked: z.number().int().describe('names considered in order until limit options were found (options + skipped)'),
    skipped: z.object({ owned: z.number().int(), unavailable: z.number().int(), over_price: z.number().int() }),
    stems: z.array(z.string()),
    patterns: z.array(z.string()),
    rule: z.object({ max_price_cents: z.number().int(), tlds: z.array(z.string()) }),
    simulated: z.literal(true).optional(),
  }),
  run: async (call, input) => ({ body: await domainOptions(call, input) }),
});
