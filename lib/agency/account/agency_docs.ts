import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { organizations } from '../../../schema';
import { ApiError, notFound } from '../../errors';
import { writeAudit } from '../audit';
import type { AgencyCall } from '../operation';

/** The agency's own notes for its assistant: how it works, its tone, its clients' quirks (free text, Markdown). */
export const DocsSchema = z.object({ text: z.string(), updated_at: z.string().nullable() });
export const MAX_DOCS_CHARS = 20_000;

const docsView = (o: typeof organizations.$inferSelect) => ({ text: o.agencyDocs, updated_at: o.agencyDocsUpdatedAt?.toISOString() ?? null });

export async function getAgencyDocs(call: AgencyCall) {
  const [org] = await call.services.db.select().from(organizations).where(eq(organizations.id, call.auth.orgId));
  if (!org) throw notFound('organization');
  return docsView(org);
}

/** Replaces the text, or with `append: true` adds it after a blank line. An unchanged text writes nothing. */
export async function updateAgencyDocs(call: AgencyCall, input: { text: string; append?: boolean }) {
  return call.services.db.transaction(async (tx) => {
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, call.auth.orgId)).for('no key update');
    if (!org) throw notFound('organization');
    const text = input.append && org.agencyDocs ? `${org.agencyDocs}\n\n${input.text}` : input.text;
    if (text.length > MAX_DOCS_CHARS) {
      throw new ApiError('validation_error', `text: the docs would be ${text.length} characters; at most ${MAX_DOCS_CHARS}`);
    }
    if (text === org.agencyDocs) return { docs: docsView(org), updated: false };
    const [row] = await tx.update(organizations).set({ agencyDocs: text, agencyDocsUpdatedAt: call.now }).where(eq(organizations.id, org.id)).returning();
    await writeAudit(tx, { orgId: org.id, actor: call.actor, action: 'agency_docs.updated', target: 'docs', detail: { chars: text.length, append: input.append ?? false }, at: call.now });
    return { docs: docsView(row), updated: true };
  });
}
