import type { Operation } from '../../../lib/agency/operation';
import { createFormulaOp } from '../tools/create_formula';
import { findFormulasOp } from '../tools/find_formulas';
import { continueRunOp, getRunOp } from '../tools/get_run';
import { requestPublishFormulaOp } from '../tools/request_publish_formula';
import { runFormulaOp } from '../tools/run_formula';
import { stopRunOp } from '../tools/stop_run';

/** Formulas and their runs: find, create (REST), publish, run round by round, follow, continue, stop. */
export const FORMULA_OPERATIONS = [findFormulasOp, createFormulaOp, requestPublishFormulaOp, runFormulaOp, getRunOp, continueRunOp, stopRunOp] as unknown as Operation[];
