// What other parts use of recipes: the definition (schema.ts), loading (load.ts), and making a version live (a
// person through the admin API, a plan step in issue 16).
export { loadRecipe, findRecipe, type LoadedRecipe, type RecipeRow } from './load';
export { makeDraftLive, dryRunPassed, type MakeLiveInput } from './versions';
export { validateDefinition, RecipeDefinitionSchema, type RecipeDefinition, type RecipeStep, type ColumnStep } from './schema';
