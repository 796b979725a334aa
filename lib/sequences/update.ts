import { ApiError } from '../errors';
import { sequenceVersions, type SequenceStep } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { sameSteps } from './steps';
import { currentVersion, sequenceView, type SequenceView } from './view';

export type UpdateSequenceInput = { client_id: string; steps: SequenceStep[]; if_version?: number };

/**
 * Saves the steps as the client's next sequence version. The client row is locked first, so concurrent updates
 * queue behind each other and each reads the version the previous one wrote (the unique index on client and
 * version stays a backstop). With `if_version` a caller that read an older version gets 409 `conflict` with the
 * current sequence instead of overwriting what it has not seen. The same steps again: no version, no audit row.
 */
export async function updateSequence(call: AgencyCall, input: UpdateSequenceInput): Promise<{ sequence: SequenceView; updated: boolean }> {
  const { orgId } = call.auth;
  return call.services.db.transaction(async (tx) => {
    const client = await findClient(tx, orgId, input.client_id, true);
    const current = await currentVersion(tx, orgId, client.id);
    const currentNumber = current?.version ?? 0;
    if (input.if_version !== undefined && input.if_version !== currentNumber) {
      throw new ApiError('conflict', `the sequence is at version ${currentNumber}, not if_version ${input.if_version}; read it again and reapply your change`, {
        body: { sequence: sequenceView(client.id, current) },
      });
    }
    if (current && sameSteps(current.steps, input.steps)) return { sequence: sequenceView(client.id, current), updated: false };
    const [row] = await tx
      .insert(sequenceVersions)
      .values({ orgId, clientId: client.id, version: currentNumber + 1, steps: input.steps, createdBy: call.actor, createdAt: call.now })
      .returning();
    await writeAudit(tx, {
      orgId,
      actor: call.actor,
      action: 'sequence.updated',
      target: `client:${client.id}`,
      detail: { version: row.version, previous_version: currentNumber, steps: row.steps.length },
      at: call.now,
    });
    return { sequence: sequenceView(client.id, row), updated: true };
  });
}
