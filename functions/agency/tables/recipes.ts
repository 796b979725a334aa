import type { Operation } from '../../../lib/agency/operation';
import { addColumnOp } from '../tools/add_column';
import { copyRecipeOp } from '../tools/copy_recipe';
import { createRecipeOp } from '../tools/create_recipe';
import { getRecipeSchemaOp } from '../tools/get_recipe_schema';
import { listRecipeTemplatesOp } from '../tools/list_recipe_templates';
import { listRecipesOp } from '../tools/list_recipes';
import { previewRecipeOp } from '../tools/preview_recipe';
import { saveRecipeAsTemplateOp } from '../tools/save_recipe_as_template';
import { updateRecipeOp } from '../tools/update_recipe';

/** Enrichment recipes (Studio): a recipe is data with a schema, versions are immutable, drafts go live by a person or plan. */
export const RECIPE_OPERATIONS = [
  listRecipesOp,
  getRecipeSchemaOp,
  listRecipeTemplatesOp,
  createRecipeOp,
  updateRecipeOp,
  addColumnOp,
  previewRecipeOp,
  copyRecipeOp,
  saveRecipeAsTemplateOp,
] as unknown as Operation[];
