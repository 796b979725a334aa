import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { clients } from '../../../schema';
import { writeAudit } from '../../agency/audit';
import { findClient } from '../../agency/clients/view';
import type { StepKind } from '../step_kind';
import { oncePerStep } from './effect';

const Params = z.object({ auto_write: z.boolean().describe('true: new leads are written without a person starting each batch') }).strict();
type Params = z.infer<typeof Params>;

/** Switches the client's auto_write on its day; undo puts back what it was before the step ran. */
export const setAutoWriteStep: StepKind<Params> = {
  kind: 'set_auto_write',
  summary: (p) => `Switch auto-write ${p.auto_write ? 'on' : 'off'}`,
  params: Params,
  buys: false,
  undoable: true,
  credits: () => 0,
  dryRun: async (ctx) => {
    await findClient(ctx.services.db, ctx.orgId, ctx.clientId);
    return [];
  },
  run: (ctx, p) =>
    oncePerStep(ctx, 'set_auto_write', async (tx) => {
      const client = await findClient(tx, ctx.orgId, ctx.clientId, true);
      if (client.autoWrite !== p.auto_write) {
        await tx.update(clients).set({ autoWrite: p.auto_write, updatedAt: ctx.now }).where(eq(clients.id, client.id));
        await writeAudit(tx, { orgId: ctx.orgId, actor: ctx.actor, action: 'client.updated', target: `client:${client.id}`, detail: { changes: { auto_write: [client.autoWrite, p.auto_write] }, plan_step_id: ctx.stepId }, at: ctx.now });
      }
      return { auto_write: p.auto_write, previous: client.autoWrite };
    }),
  undo: async (ctx, p, result) => {
    const previous = typeof result.previous === 'boolean' ? result.previous : !p.auto_write;
    const client = await findClient(ctx.services.db, ctx.orgId, ctx.clientId, true);
    if (client.autoWrite === previous) return;
    await ctx.services.db.update(clients).set({ autoWrite: previous, updatedAt: ctx.now }).where(and(eq(clients.id, client.id), eq(clients.orgId, ctx.orgId)));
    await writeAudit(ctx.services.db, { orgId: ctx.orgId, actor: ctx.actor, action: 'client.updated', target: `client:${client.id}`, detail: { changes: { auto_write: [client.autoWrite, previous] }, undo_of_plan_step: ctx.stepId }, at: ctx.now });
  },
};
