// Mining review edits into learned rules (issue 18). review_edit_mail calls mineEdit inside its transaction.
import type { Db } from '../db/types';
import type { WrittenMail } from '../../schema/batches';

export type MinedEdit = { orgId: string; clientId: string; editId: string; batchId: string; poolLeadId: string; before: WrittenMail; after: WrittenMail };

/** Adds or extends the learned rules one review edit is evidence for (suggested until activate_learned_rule). */
export async function mineEdit(_tx: Db, _edit: MinedEdit): Promise<void> {
  // Filled in by the learning work of issue 18; until then an edit is recorded (review_edits) but mined later.
}
