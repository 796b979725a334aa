import type { StepKind } from './step_kind';
import { builtinStepKinds } from './steps';

export type { StepContext, StepKind } from './step_kind';

const kinds = new Map<string, StepKind<any>>();

/** Later issues (infrastructure, engine) add their kinds here; a kind registered twice replaces the first. */
export function registerStepKind(k: StepKind<any>): void {
  if (k.buys && k.undoable) throw new Error(`step kind ${k.kind}: a purchase cannot be undoable`);
  kinds.set(k.kind, k);
}

export function stepKind(kind: string): StepKind | undefined {
  return kinds.get(kind);
}

export function stepKinds(): StepKind[] {
  return [...kinds.values()].sort((a, b) => a.kind.localeCompare(b.kind));
}

// Step files take their types from ./step_kind, so the registry can load them without an import circle: whoever
// imports the registry (propose, execute) sees every built-in kind.
for (const k of builtinStepKinds) registerStepKind(k);
