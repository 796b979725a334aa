import { eq } from 'drizzle-orm';
import { clients, playbookVersions, type Playbook } from '../../../schema';
import type { Db } from '../../db/types';
import type { Applied, Preview, TwoStepDef } from '../confirm';
import type { AgencyCall } from '../operation';
import { clientView, findClient, type ClientView } from './view';

export type PlaybookInput = { client_id: string; instructions: string; tone?: string | null; signature?: string | null; rules?: string[] };

export type PlaybookPreview = {
  client_id: string;
  current_version: number;
  next_version: number;
  current: Playbook | null;
  proposed: Playbook;
  changed_fields: string[];
};

const proposedOf = (input: PlaybookInput): Playbook => ({
  instructions: input.instructions.trim(),
  tone: input.tone?.trim() || null,
  signature: input.signature?.trim() || null,
  rules: (input.rules ?? []).map((r) => r.trim()).filter(Boolean),
});

async function preview(call: AgencyCall, input: PlaybookInput, db: Db): Promise<Preview<PlaybookPreview>> {
  const client = await findClient(db, call.auth.orgId, input.client_id, db !== call.services.db);
  const proposed = proposedOf(input);
  const current = client.playbook ?? null;
  const changed = (Object.keys(proposed) as (keyof Playbook)[]).filter((k) => JSON.stringify(current?.[k] ?? null) !== JSON.stringify(proposed[k]));
  return {
    preview: { client_id: client.id, current_version: client.playbookVersion, next_version: client.playbookVersion + 1, current, proposed, changed_fields: changed },
    // A playbook saved by someone else in between makes this preview stale: its diff no longer says what changes.
    state: { version: client.playbookVersion },
    credits: 0,
  };
}

async function apply(call: AgencyCall, input: PlaybookInput, tx: Db, p: Preview<PlaybookPreview>): Promise<Applied<{ client: ClientView; playbook_version: number }>> {
  const version = p.preview.next_version;
  const [row] = await tx
    .update(clients)
    .set({ playbook: p.preview.proposed, playbookVersion: version, updatedAt: call.now })
    .where(eq(clients.id, p.preview.client_id))
    .returning();
  await tx.insert(playbookVersions).values({ orgId: call.auth.orgId, clientId: row.id, version, playbook: p.preview.proposed, actor: call.actor, createdAt: call.now });
  return {
    result: { client: clientView(row), playbook_version: version },
    audit: { action: 'playbook.updated', target: `client:${row.id}`, detail: { version, changed_fields: p.preview.changed_fields } },
  };
}

/** update_playbook: a new version of the client's reply playbook, in two steps; every version is kept. */
export const updatePlaybook: TwoStepDef<PlaybookInput & { confirm_token?: string }, PlaybookPreview, { client: ClientView; playbook_version: number }> = {
  tool: 'update_playbook',
  preview,
  apply,
};
