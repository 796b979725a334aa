import { z } from 'zod';
import { AGREEMENT_KINDS, CATCH_UP } from './view';

/** Largest target per kind: far above what any agency promises, low enough to catch a slipped digit or a unit mix-up. */
export const TARGET_MAX: Record<(typeof AGREEMENT_KINDS)[number], number> = {
  new_prospects_per_workday: 10_000,
  meetings_per_month: 10_000,
  replies_per_month: 100_000,
  custom: 1_000_000,
};

/** set_agreement's fields besides client_id (the cross-field rules — label iff custom, bounds per kind — are in set.ts). */
export const agreementFields = {
  kind: z.enum(AGREEMENT_KINDS).describe('new_prospects_per_workday (pool leads added per Monday-Friday), meetings_per_month (booked meetings), replies_per_month (prospects who replied), or custom (needs a label; the service has no data for it).'),
  label: z.string().trim().min(1).max(100).optional().describe('Name of a custom agreement (required for custom, refused for the other kinds); one active custom agreement per label.'),
  target: z
    .number()
    .positive()
    .max(1_000_000)
    .multipleOf(0.01, { message: 'must have at most two decimals' })
    .describe('The promised amount per workday or per month, greater than 0.'),
  start: z.iso.date().describe('First day the agreement counts (YYYY-MM-DD, organization timezone); at most ten years back and one year ahead.'),
  catch_up: z.enum(CATCH_UP).optional().describe('spread (default): a shortfall carries over into the next months; drop: each month starts afresh.'),
};
