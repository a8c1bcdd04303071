// Ids that differ between deployments (a routine's model, branch and e-mail user groups) and the
// environment variables that name them. Export writes `${var.NAME}` for an id a variable holds;
// promotion turns a source id into the target's id through the variable of the same name.
import type { RoutineConfig } from '../config/types.js';
import type { VariableValue } from '../config/interpolate.js';
import { StewardError } from '../errors.js';
import type { ConfigSections } from './mapping.js';

/** Where an environment-specific id is used. */
export interface IdUse {
  routine: string;
  field: 'modelId' | 'branchId' | 'userGroupIds';
  id: string;
}

/** Replaces every environment-specific id of the routines with `map(use)`. Pure. */
export function mapRoutineIds(sections: ConfigSections, map: (use: IdUse) => string): ConfigSections {
  if (sections.routines === undefined) return sections;
  const routines = sections.routines.map((routine): RoutineConfig => {
    const use = (field: IdUse['field'], id: string) => map({ routine: routine.name, field, id });
    // A model or branch named by name needs no mapping: names are the same in every deployment.
    const model = routine.modelId === undefined ? {} : { modelId: use('modelId', routine.modelId) };
    const branch = typeof routine.branchId === 'string' ? { branchId: use('branchId', routine.branchId) } : {};
    const destination = routine.destination.type === 'email' && routine.destination.userGroupIds !== undefined
      ? { ...routine.destination, userGroupIds: routine.destination.userGroupIds.map((id) => use('userGroupIds', id)) }
      : routine.destination;
    return { ...routine, ...model, ...branch, destination };
  });
  return { ...sections, routines };
}

/** Names of the variables whose value is exactly `id`, in declaration order. */
export function variablesHolding(variables: Readonly<Record<string, VariableValue>> | undefined, id: string): string[] {
  return Object.entries(variables ?? {}).filter(([, value]) => value === id).map(([name]) => name);
}

/**
 * Export: each id a variable of the environment holds becomes `${var.NAME}` (the first such
 * variable), so the file plans against every environment; other ids stay literal, with a
 * warning. Run after escapeReferences: the references written here must stay references.
 */
export function referVariables(
  sections: ConfigSections,
  environment: { name: string; variables?: Readonly<Record<string, VariableValue>> },
): { sections: ConfigSections; warnings: string[] } {
  const warnings: string[] = [];
  const mapped = mapRoutineIds(sections, (use) => {
    const [name] = variablesHolding(environment.variables, use.id);
    if (name !== undefined) return `\${var.${name}}`;
    warnings.push(
      `routine "${use.routine}": ${use.field} ${use.id} is written as a literal id because no variable of environment ${environment.name} holds it; ` +
        `the file will not work against another environment until you declare one (e.g. under environments.${environment.name}.variables) and use \${var.NAME}`,
    );
    return use.id;
  });
  return { sections: mapped, warnings };
}

/**
 * Promotion: each id of the source environment becomes the target's id, through the source
 * variable(s) holding it and the target's variable of the same name. Throws, naming the routine
 * and the id, when no variable names it, the target lacks that variable, or two variables
 * disagree about the target's id.
 */
export function translateIds(
  sections: ConfigSections,
  source: { name: string; variables?: Readonly<Record<string, VariableValue>> },
  target: { name: string; variables?: Readonly<Record<string, VariableValue>> },
): ConfigSections {
  return mapRoutineIds(sections, (use) => {
    const names = variablesHolding(source.variables, use.id);
    const what = `routine "${use.routine}": ${use.field} ${use.id} of ${source.name}`;
    if (names.length === 0) {
      throw new StewardError('promote.unmapped-id', `${what} is not the value of any variable of environment ${source.name}, so steward cannot tell what it is in ${target.name}`, 'user', {
        hint: `declare a variable holding it under environments.${source.name}.variables and the same variable with ${target.name}'s id under environments.${target.name}.variables`,
      });
    }
    const missing = names.filter((name) => typeof target.variables?.[name] !== 'string');
    if (missing.length === names.length) {
      throw new StewardError('promote.unmapped-id', `${what} is \${var.${names[0]}}, which environment ${target.name} does not define as an id`, 'user', {
        hint: `declare ${names[0]} under environments.${target.name}.variables with ${target.name}'s id`,
      });
    }
    const candidates = [...new Set(names.filter((name) => !missing.includes(name)).map((name) => target.variables![name] as string))];
    if (candidates.length > 1) {
      throw new StewardError('promote.ambiguous-id', `${what} is held by variables ${names.join(', ')}, whose values in ${target.name} differ (${candidates.join(', ')})`, 'user', {
        hint: 'give each id its own variable',
      });
    }
    return candidates[0]!;
  });
}

/** Writes every `${` of live text as `$${`, so loading the file gives back the text as it was. Pure. */
export function escapeReferences<T>(value: T): T {
  // A function replacement: in a replacement string, `$$` would mean a single `$`.
  if (typeof value === 'string') return value.replaceAll('${', () => '$${') as T;
  if (Array.isArray(value)) return value.map((item) => escapeReferences(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, escapeReferences(child)])) as T;
  }
  return value;
}
