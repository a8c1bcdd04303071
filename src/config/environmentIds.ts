// Ids that differ between deployments (a routine's model, a user group) and the environment
// variables that name them: the variable holding an id in one environment holds the same
// object's id in another. Export writes such an id as `${var.NAME}`; a promotion takes the
// source's id to the target's through the variable of the same name. Which fields hold such ids,
// and the words for one no variable names, are each kind's (KindExport.environmentIds). Pure.
import type { VariableValue } from './interpolate.js';

/** An environment as far as its ids go: its name, for messages, and its variables. */
export interface IdEnvironment {
  name: string;
  variables?: Readonly<Record<string, VariableValue>>;
}

/** Names of the variables whose value is exactly `id`, in declaration order. */
export function variablesHolding(variables: Readonly<Record<string, VariableValue>> | undefined, id: string): string[] {
  return Object.entries(variables ?? {}).filter(([, value]) => value === id).map(([name]) => name);
}

/** `${var.NAME}` of the first variable of the environment holding `id`; undefined where none does. */
export function variableReference(environment: IdEnvironment, id: string): string | undefined {
  const [name] = variablesHolding(environment.variables, id);
  return name === undefined ? undefined : `\${var.${name}}`;
}

/**
 * What names a source id in the target: the source's variables holding it, and the distinct ids
 * the target gives those variables (a variable the target does not define as an id gives none).
 * One id is the translation; none or several is for the kind to refuse in its own words.
 */
export function idInTarget(id: string, source: IdEnvironment, target: IdEnvironment): { variables: string[]; ids: string[] } {
  const variables = variablesHolding(source.variables, id);
  const ids = variables.map((name) => target.variables?.[name]).filter((value): value is string => typeof value === 'string');
  return { variables, ids: [...new Set(ids)] };
}
