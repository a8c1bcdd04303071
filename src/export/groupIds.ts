// User group limits that export and promotion cannot name (`userGroupId:` entries: SCIM does not
// know the id, as on a server that keys limits by uuid, or two groups share the name). Their ids
// differ between deployments, so they go through environment variables as routine model ids do:
// export writes `${var.NAME}` for an id a variable holds; promotion maps a source id to the target's
// through the variable of the same name, and refuses an id no variable maps.
import type { VariableValue } from '../config/interpolate.js';
import { StewardError } from '../errors.js';
import { variablesHolding } from './ids.js';
import type { ConfigSections } from './mapping.js';

type Environment = { name: string; variables?: Readonly<Record<string, VariableValue>> };

function mapGroupIds(sections: ConfigSections, map: (id: string) => string): ConfigSections {
  if (sections.userGroupCreditLimits === undefined) return sections;
  const userGroupCreditLimits = sections.userGroupCreditLimits.map((entry) =>
    entry.userGroupId === undefined || entry.group !== undefined ? entry : { ...entry, userGroupId: map(entry.userGroupId) },
  );
  return { ...sections, userGroupCreditLimits };
}

/** Export: `${var.NAME}` for each user group id a variable of the environment holds; a warning for the others. Pure. */
export function referGroupVariables(sections: ConfigSections, environment: Environment): { sections: ConfigSections; warnings: string[] } {
  const warnings: string[] = [];
  const mapped = mapGroupIds(sections, (id) => {
    const [name] = variablesHolding(environment.variables, id);
    if (name !== undefined) return `\${var.${name}}`;
    warnings.push(
      `user group credit limit: userGroupId ${id} is written as a literal id because SCIM does not name it (or two groups share its name) and no variable of environment ${environment.name} holds it; ` +
        'the file will not work against another environment until you name the group by `group:` or use ${var.NAME}',
    );
    return id;
  });
  return { sections: mapped, warnings };
}

/** Promotion: each source user group id becomes the target's id through a variable of the same name; throws for an id none maps. Pure. */
export function translateGroupIds(sections: ConfigSections, source: Environment, target: Environment): ConfigSections {
  return mapGroupIds(sections, (id) => {
    const names = variablesHolding(source.variables, id);
    const what = `user group credit limit of group ${id} in ${source.name}`;
    const mapped = [...new Set(names.flatMap((name) => (typeof target.variables?.[name] === 'string' ? [target.variables[name] as string] : [])))];
    if (mapped.length === 1) return mapped[0]!;
    if (mapped.length > 1) {
      throw new StewardError('promote.ambiguous-id', `${what}: variables ${names.join(', ')} hold it, and their values in ${target.name} differ (${mapped.join(', ')})`, 'user', {
        hint: 'give each id its own variable',
      });
    }
    throw new StewardError(
      'promote.unmapped-group',
      `${what}: SCIM does not name the group (or its name is not unique), so steward cannot tell which group it is in ${target.name}`,
      'user',
      {
        hint: names.length === 0
          ? `declare a variable holding it under environments.${source.name}.variables and the same variable with ${target.name}'s id under environments.${target.name}.variables`
          : `declare ${names[0]} under environments.${target.name}.variables with ${target.name}'s id`,
      },
    );
  });
}
