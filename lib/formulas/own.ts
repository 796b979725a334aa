// The agency's own formulas: created through POST /v1/agency/formulas (REST; the assistant can also add a
// question column with add_column), found with find_formulas `library: agency`, used in recipes by id, and
// offered to the shared library with request_publish_formula. The price follows the kind (0 for an expression,
// 1 for a lookup or a question): an agency cannot price its own formula.
import { and, eq } from 'drizzle-orm';
import { formulas, organizations } from '../../schema';
import { writeAudit } from '../agency/audit';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { isUniqueViolation } from '../db/types';
import { ApiError, notFound } from '../errors';
import { checkExpression } from './expr/run';
import { ExpressionError } from './expr/parse';
import { ownDef, placeholdersOf, QUESTION_COST } from './evaluate';
import { LIBRARY_BY_KEY } from './library';
import type { FormulaKind, OutputType } from './types';
import { formulaView, type FormulaView } from './view';

export const LOOKUP_FIELDS = ['name', 'industry', 'employees', 'founded_year', 'country', 'technologies', 'description', 'vacancies', 'signals'] as const;

export type CreateFormulaInput = {
  name: string;
  description?: string;
  goals?: string[];
  kind: FormulaKind;
  expression?: string;
  question?: string;
  field?: (typeof LOOKUP_FIELDS)[number];
  inputs?: string[];
  output_type: OutputType;
};

function specOf(input: CreateFormulaInput): { spec: Record<string, unknown>; inputs: string[]; cost: number } {
  const only = (field: 'expression' | 'question' | 'field') => {
    const extra = (['expression', 'question', 'field'] as const).filter((f) => f !== field && input[f] !== undefined);
    if (extra.length) throw new ApiError('validation_error', `${extra[0]}: not used by a ${input.kind} formula (it takes ${field})`);
    if (input[field] === undefined) throw new ApiError('validation_error', `${field}: a ${input.kind} formula needs it`);
  };
  if (input.kind === 'expression') {
    only('expression');
    try {
      const { fields } = checkExpression(input.expression!);
      return { spec: { expression: input.expression }, inputs: input.inputs ?? fields, cost: 0 };
    } catch (err) {
      if (err instanceof ExpressionError) throw new ApiError('validation_error', `expression: ${err.message}`);
      throw err;
    }
  }
  if (input.kind === 'question') {
    only('question');
    return { spec: { question: input.question }, inputs: input.inputs ?? placeholdersOf(input.question!), cost: QUESTION_COST };
  }
  only('field');
  return { spec: { field: input.field }, inputs: ['company_domain'], cost: 1 };
}

export async function createFormula(call: AgencyCall, input: CreateFormulaInput): Promise<{ formula: FormulaView }> {
  const name = input.name.trim();
  if (LIBRARY_BY_KEY.has(name)) throw new ApiError('validation_error', `name: "${name}" is a shared library key; choose another name`);
  const { spec, inputs, cost } = specOf(input);
  try {
    const row = await call.services.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(formulas)
        .values({
          orgId: call.auth.orgId,
          name,
          description: input.description ?? '',
          goals: input.goals ?? [],
          kind: input.kind,
          spec,
          inputs,
          outputType: input.output_type,
          creditCost: cost,
          createdBy: call.actor,
          createdAt: call.now,
        })
        .returning();
      await writeAudit(tx, { orgId: call.auth.orgId, actor: call.actor, action: 'formula.created', target: `formula:${created.id}`, detail: { name, kind: input.kind }, at: call.now });
      return created;
    });
    return { formula: formulaView(ownDef(row), row) };
  } catch (err) {
    if (isUniqueViolation(err, 'formulas_org_name_uq')) {
      const [existing] = await call.services.db.select().from(formulas).where(and(eq(formulas.orgId, call.auth.orgId), eq(formulas.name, name)));
      throw new ApiError('conflict', `you already have a formula named "${name}"`, { body: existing ? { formula: formulaView(ownDef(existing), existing) } : {} });
    }
    throw err;
  }
}

export type PublishInput = { formula_id: string; author_opt_in?: boolean; confirm_token?: string };
export type PublishPreview = { formula: FormulaView; author: string | null; publish_status: 'requested' };

async function preview(call: AgencyCall, input: PublishInput, db: Db): Promise<Preview<PublishPreview>> {
  const [org] = await db.select({ name: organizations.name, paying: organizations.paying }).from(organizations).where(eq(organizations.id, call.auth.orgId));
  const [row] = await db
    .select()
    .from(formulas)
    .where(and(eq(formulas.id, input.formula_id), eq(formulas.orgId, call.auth.orgId)));
  if (!row) throw notFound('formula');
  if (!org?.paying) throw new ApiError('not_paying', 'publishing a formula to the shared library is for paying workspaces');
  const optIn = input.author_opt_in === true;
  return {
    preview: { formula: formulaView(ownDef(row), row), author: optIn ? org.name : null, publish_status: 'requested' },
    state: { id: row.id, spec: row.spec, publish: row.publishStatus, opt_in: row.authorOptIn },
    credits: 0,
  };
}

async function apply(call: AgencyCall, input: PublishInput, tx: Db, p: Preview<PublishPreview>): Promise<Applied<{ formula: FormulaView; author: string | null }>> {
  const [row] = await tx
    .update(formulas)
    .set({ publishStatus: 'requested', authorOptIn: input.author_opt_in === true })
    .where(and(eq(formulas.id, input.formula_id), eq(formulas.orgId, call.auth.orgId)))
    .returning();
  return {
    result: { formula: formulaView(ownDef(row), row), author: p.preview.author },
    audit: { action: 'formula.publish_requested', target: `formula:${row.id}`, detail: { name: row.name, author_opt_in: row.authorOptIn } },
  };
}

export const requestPublishFormula: TwoStepDef<PublishInput, PublishPreview, { formula: FormulaView; author: string | null }> = { tool: 'request_publish_formula', preview, apply };
