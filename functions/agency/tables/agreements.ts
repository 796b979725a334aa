import type { Operation } from '../../../lib/agency/operation';
import { getAgreementsOp } from '../tools/get_agreements';
import { getCourseOp } from '../tools/get_course';
import { setAgreementOp } from '../tools/set_agreement';

/** Agreements with clients and the course against them (Studio). */
export const AGREEMENT_OPERATIONS = [getAgreementsOp, setAgreementOp, getCourseOp] as unknown as Operation[];
