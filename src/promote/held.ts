// What a promotion keeps at the target's own value: a declared field whose value comes from a
// `${var.NAME}` that differs between the two environments (each environment has its own by
// design: `paused: ${var.routinesPaused}`, `creditLimit: ${var.graceLimit}`), and a field the
// source environment's own policies constrain (`paused` under `routines.requirePaused`). Id
// variables that name the same object in each deployment (a routine's model, branch and e-mail
// user groups, a group limit's id) are translated instead (export/ids.ts), never held. Pure.
import type { ConfigPath, EnvironmentConfig, StewardConfig } from '../config/types.js';
import type { PlanHeldField } from '../model/plan.js';
import { effectivePolicies } from '../policy/settings.js';

/** A declared field the promotion keeps at the target's value, and why. */
export type HeldField = PlanHeldField;

type Section = 'creditControls' | 'userCreditLimits' | 'userGroupCreditLimits' | 'entityGroupCreditLimits' | 'routines' | 'labels';

/** Fields that name an object (its identity) or an id translated between deployments: never held. */
const NOT_HELD: Readonly<Record<Section, ReadonlySet<string>>> = {
  creditControls: new Set(),
  userCreditLimits: new Set(['email', 'userId']),
  userGroupCreditLimits: new Set(['group', 'userGroupId']),
  entityGroupCreditLimits: new Set(['entity']),
  routines: new Set(['name', 'owner', 'modelId', 'branchId']),
  labels: new Set(['name']),
};

/** The key of an entry as the config names it (and as `protect` lists name it). */
export function keyOf(section: Section, entry: Record<string, unknown> | undefined): string | undefined {
  if (entry === undefined) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  switch (section) {
    case 'creditControls':
      return 'credit controls';
    case 'userCreditLimits':
      return text(entry.email) ?? text(entry.userId);
    case 'userGroupCreditLimits':
      return text(entry.group) ?? text(entry.userGroupId);
    case 'entityGroupCreditLimits':
      return text(entry.entity);
    case 'routines':
    case 'labels':
      return text(entry.name);
  }
}

function isSection(value: unknown): value is Section {
  return typeof value === 'string' && value in NOT_HELD;
}

/** The section, entry and top-level field of a config path, or undefined for a path outside the kinds. */
function locateField(config: StewardConfig, path: ConfigPath): { section: Section; key: string; field: string } | undefined {
  const [section, second, third, fourth] = path;
  if (!isSection(section)) return undefined;
  if (section === 'creditControls') return typeof second === 'string' ? { section, key: 'credit controls', field: second } : undefined;
  if (typeof second !== 'number' || typeof third !== 'string') return undefined;
  // A routine's e-mail user groups are ids, translated like its model.
  if (section === 'routines' && third === 'destination' && fourth === 'userGroupIds') return undefined;
  if (NOT_HELD[section].has(third)) return undefined;
  const key = keyOf(section, (config[section] as Record<string, unknown>[] | undefined)?.[second]);
  return key === undefined ? undefined : { section, key, field: third };
}

/**
 * The declared fields a promotion from `source` keeps at the target's value. `config` is the
 * target's resolved configuration; `references` where its values came from variables.
 */
export function fieldsToHold(
  config: StewardConfig,
  references: readonly { path: ConfigPath; variables: readonly string[] }[],
  source: { name: string; environment: EnvironmentConfig },
  target: { name: string; environment: EnvironmentConfig },
): HeldField[] {
  const held = new Map<string, HeldField>();
  const add = (entry: HeldField) => {
    const id = `${entry.kind}\0${entry.key}\0${entry.field}`;
    if (!held.has(id)) held.set(id, entry);
  };
  const sourceVariables = source.environment.variables ?? {};
  const targetVariables = target.environment.variables ?? {};
  for (const { path, variables } of references) {
    const differing = variables.filter((name) => JSON.stringify(sourceVariables[name]) !== JSON.stringify(targetVariables[name]));
    if (differing.length === 0) continue;
    const located = locateField(config, path);
    if (located === undefined) continue;
    const reason = `variable ${differing.join(', ')} differs by environment`;
    add({ kind: located.section, key: located.key, field: located.field, reason, variables: differing });
  }
  if (effectivePolicies(config, source.name).policies.routines?.requirePaused === true) {
    for (const routine of config.routines ?? []) {
      add({ kind: 'routines', key: routine.name, field: 'paused', reason: `${source.name}'s policy routines.requirePaused` });
    }
  }
  return [...held.values()];
}

/** One line saying what a promotion held back: `kept production's own value for 3 fields: paused ×2, creditLimit ×1`. */
export function heldSummary(held: readonly HeldField[], target: string): string {
  const counts = new Map<string, number>();
  for (const entry of held) counts.set(entry.field, (counts.get(entry.field) ?? 0) + 1);
  const reasons = [...new Set(held.map((entry) => (entry.variables === undefined ? entry.reason : 'variables that differ by environment')))];
  const fields = [...counts].sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b)).map(([field, count]) => `${field} ×${count}`).join(', ');
  return `kept ${target}'s own value for ${held.length} field${held.length === 1 ? '' : 's'}: ${fields}, from ${reasons.join(' and ')}`;
}
