// The domain rule's fields as set_domain_rule accepts them (each optional: a field given replaces that field) and
// as every domain tool answers them. One source for the REST validator, the MCP inputSchema and the result schema.
import { z } from 'zod';

export const STEM = /^[a-z0-9](?:[a-z0-9-]{0,28}[a-z0-9])$/;

export const stemArg = z
  .string()
  .trim()
  .toLowerCase()
  .regex(STEM, { message: 'each stem must be 2..30 letters, digits or inner hyphens (a-z, 0-9, -), e.g. acme' });

/** A look-alike pattern: letters, digits, hyphens and exactly one `{stem}`, e.g. `get{stem}` or `{stem}-hq`. */
export const patternArg = z
  .string()
  .trim()
  .toLowerCase()
  .max(60)
  .refine((v) => v.split('{stem}').length === 2, { message: 'must contain {stem} exactly once, e.g. get{stem} or {stem}hq' })
  .refine((v) => /^[a-z0-9-]*$/.test(v.replace('{stem}', '')), { message: 'apart from {stem}, only letters, digits and hyphens (no dot, no TLD: TLDs go in tlds)' });

export const tldArg = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,24}$/, { message: 'each TLD must be 2..24 letters without the dot, e.g. com' });

const httpsUrl = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'https:' && u.hostname.includes('.') && !u.username && !u.password;
      } catch {
        return false;
      }
    },
    { message: 'must be an https URL such as https://acme.com (or null for no redirect)' },
  );

/** "First Last": two or more words of letters (hyphens and apostrophes inside), spaces collapsed. */
export const senderNameArg = z
  .string()
  .trim()
  .transform((v) => v.replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .max(60)
      .regex(/^\p{L}[\p{L}'’-]*(?: \p{L}[\p{L}'’.-]*)+$/u, { message: 'each sender name must be a first and a last name, e.g. Anna Berg' }),
  );

const distinct = <T>(v: T[]) => [...new Set(v)];

export const RULE_FIELDS = ['stems', 'pattern', 'tlds', 'max_price_cents', 'mailboxes_per_domain', 'daily_cap', 'redirect_to', 'sender_names'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

export const RuleFieldArgs = {
  stems: z.array(stemArg).min(1).max(20).transform(distinct).describe('the words domains are built from, e.g. ["acme"]'),
  pattern: patternArg.nullable().describe('one look-alike pattern with {stem}, e.g. get{stem}; null: the built-in patterns'),
  tlds: z.array(tldArg).min(1).max(10).transform(distinct).describe('TLDs without the dot, e.g. ["com","io"]'),
  max_price_cents: z.number().int().min(100).max(100_000).describe("the most one domain's first year may cost, in US cents"),
  mailboxes_per_domain: z.number().int().min(1).max(10),
  daily_cap: z.number().int().min(1).max(200).describe('what an active mailbox sends a day (the end of its ramp)'),
  redirect_to: httpsUrl.nullable().describe("where the domains' web address redirects (the client's website), or null"),
  sender_names: z.array(senderNameArg).max(10).transform(distinct).describe('names for the mailboxes ("First Last"); empty: built-in names'),
};

export const DomainRuleSchema = z.object({
  client_id: z.string(),
  stems: z.array(z.string()),
  pattern: z.string().nullable(),
  tlds: z.array(z.string()),
  max_price_cents: z.number().int(),
  mailboxes_per_domain: z.number().int(),
  daily_cap: z.number().int(),
  redirect_to: z.string().nullable(),
  sender_names: z.array(z.string()),
  workspace: z.object({ id: z.string(), name: z.string().nullable() }).nullable().describe('the domain workspace mailboxes are created in (set_domain_workspace)'),
  updated_at: z.string().nullable().describe('null: never set, these are the defaults'),
  updated_by: z.string().nullable(),
});
