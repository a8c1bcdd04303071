// A routine's ids that differ between deployments: its model and branch where the config gives
// them by id, and an e-mail destination's user groups. Export writes each as the `${var.NAME}` of
// the variable holding it; a promotion takes the source's id to the target's through the variable
// of the same name (config/environmentIds.ts), and refuses one none maps, naming the routine.
import { idInTarget, variableReference } from '../../config/environmentIds.js';
import type { RoutineConfig } from '../../config/types.js';
import { StewardError } from '../../errors.js';
import type { KindEnvironmentIds } from '../../model/kind.js';

/** Where an environment-specific id is used. */
interface IdUse {
  routine: string;
  field: 'modelId' | 'branchId' | 'userGroupIds';
  id: string;
}

/** Replaces every environment-specific id of the routines with `map(use)`. Pure. */
function mapRoutineIds(routines: readonly RoutineConfig[], map: (use: IdUse) => string): RoutineConfig[] {
  return routines.map((routine): RoutineConfig => {
    const use = (field: IdUse['field'], id: string) => map({ routine: routine.name, field, id });
    // A model or branch named by name needs no mapping: names are the same in every deployment.
    const model = routine.modelId === undefined ? {} : { modelId: use('modelId', routine.modelId) };
    const branch = typeof routine.branchId === 'string' ? { branchId: use('branchId', routine.branchId) } : {};
    const destination = routine.destination.type === 'email' && routine.destination.userGroupIds !== undefined
      ? { ...routine.destination, userGroupIds: routine.destination.userGroupIds.map((id) => use('userGroupIds', id)) }
      : routine.destination;
    return { ...routine, ...model, ...branch, destination };
  });
}

export const routineIds: KindEnvironmentIds<RoutineConfig[]> = {
  refer(routines, environment) {
    const warnings: string[] = [];
    const section = mapRoutineIds(routines, (use) => {
      const reference = variableReference(environment, use.id);
      if (reference !== undefined) return reference;
      warnings.push(
        `routine "${use.routine}": ${use.field} ${use.id} is written as a literal id because no variable of environment ${environment.name} holds it; ` +
          `the file will not work against another environment until you declare one (e.g. under environments.${environment.name}.variables) and use \${var.NAME}`,
      );
      return use.id;
    });
    return { section, warnings };
  },

  // Refused when no variable names the id, the target lacks that variable, or two variables disagree about the target's id.
  translate(routines, source, target) {
    return mapRoutineIds(routines, (use) => {
      const { variables, ids } = idInTarget(use.id, source, target);
      const what = `routine "${use.routine}": ${use.field} ${use.id} of ${source.name}`;
      if (variables.length === 0) {
        throw new StewardError('promote.unmapped-id', `${what} is not the value of any variable of environment ${source.name}, so steward cannot tell what it is in ${target.name}`, 'user', {
          hint: `declare a variable holding it under environments.${source.name}.variables and the same variable with ${target.name}'s id under environments.${target.name}.variables`,
        });
      }
      if (ids.length === 0) {
        throw new StewardError('promote.unmapped-id', `${what} is \${var.${variables[0]}}, which environment ${target.name} does not define as an id`, 'user', {
          hint: `declare ${variables[0]} under environments.${target.name}.variables with ${target.name}'s id`,
        });
      }
      if (ids.length > 1) {
        throw new StewardError('promote.ambiguous-id', `${what} is held by variables ${variables.join(', ')}, whose values in ${target.name} differ (${ids.join(', ')})`, 'user', {
          hint: 'give each id its own variable',
        });
      }
      return ids[0]!;
    });
  },
};
