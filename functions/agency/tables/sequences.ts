import type { Operation } from '../../../lib/agency/operation';
import { getSequenceOp } from '../tools/get_sequence';
import { getSequencePreviewOp } from '../tools/get_sequence_preview';
import { previewSequenceOp } from '../tools/preview_sequence';
import { updateSequenceOp } from '../tools/update_sequence';

/** The client's mail sequence (Studio, issue 18): versions, and a preview rendered for up to 3 sample leads. */
export const SEQUENCE_OPERATIONS = [getSequenceOp, updateSequenceOp, previewSequenceOp, getSequencePreviewOp] as unknown as Operation[];
