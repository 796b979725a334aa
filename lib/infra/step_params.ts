// The params of the infrastructure plan steps, in one place: choose_domains and auto-protect propose them, the step
// kinds (lib/plans/steps/{buy_domain,setup_dns,create_mailboxes}.ts) validate and run them.
import { z } from 'zod';

/** A registrable domain name in lower case: labels of letters, digits and inner hyphens, a TLD of letters. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$/, { message: 'must be a domain name such as getacme.com' });

export const BuyDomainParams = z
  .object({
    domain: domainName,
    max_price_cents: z.number().int().min(1).max(100_000).describe('the most the order may cost (US cents, first year); a higher price refuses it'),
  })
  .strict();

export const SetupDnsParams = z.object({ domain: domainName }).strict();

export const MAX_MAILBOXES_PER_STEP = 20;
export const CreateMailboxesParams = z
  .object({
    domain: domainName,
    count: z.number().int().min(1).max(MAX_MAILBOXES_PER_STEP).describe('mailboxes to create on the domain'),
  })
  .strict();

export type BuyDomainParams = z.infer<typeof BuyDomainParams>;
export type SetupDnsParams = z.infer<typeof SetupDnsParams>;
export type CreateMailboxesParams = z.infer<typeof CreateMailboxesParams>;

/** Step days after approval: the purchase on day 0, DNS the next day, mailboxes the day after. */
export const INFRA_STEP_DAYS = { buy_domain: 0, setup_dns: 1, create_mailboxes: 2 } as const;
