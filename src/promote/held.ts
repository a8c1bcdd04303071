// What a promotion keeps at the target's own value: a declared field whose value comes from a
// `${var.NAME}` that differs between the two environments (each environment has its own by
// design: `paused: ${var.routinesPaused}`, `creditLimit: ${var.graceLimit}`), and a field the
// source environment's own policies constrain (under `routines.requirePaused`, the field that
// keeps what a kind runs on a schedule paused, as the kind names it: KindExport.pausedField). Id
// variables that name the same object in each deployment (a routine's model, branch and e-mail
// user groups, a group limit's id) are translated instead (KindExport.environmentIds), never held. Pure.
import type { ConfigPath, EnvironmentConfig, Kind, StewardConfig } from '../config/types.js';
import { REGISTRY } from '../kinds/registry.js';
import type { PlanHeldField } from '../model/plan.js';
import { effectivePolicies } from '../policy/settings.js';

/** A declared field the promotion keeps at the target's value, and why. */
export type HeldField = PlanHeldField;

/** The key of a kind's config entry as the config names it (and as `protect` lists name it). */
export function keyOf(kind: Kind, entry: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (entry === undefined) return undefined;
  return REGISTRY.get(kind)?.entries?.keyOf(entry);
}

/** What a config path is about: a setting of a singleton kind (credit controls), or a field of a list kind's entry. */
function locateField(config: StewardConfig, path: ConfigPath): { section: Kind; key: string; field: string } | undefined {
  const [section, second, third, fourth] = path;
  const kind = typeof section === 'string' ? REGISTRY.get(section as Kind) : undefined;
  if (kind === undefined) return undefined;
  const value: unknown = config[kind.kind as keyof StewardConfig];
  // A kind that is one object (credit controls): its settings are its fields.
  if (kind.entries === undefined) return typeof second === 'string' && !Array.isArray(value) ? { section: kind.kind, key: kind.presentation.noun[1], field: second } : undefined;
  if (typeof second !== 'number' || typeof third !== 'string' || !Array.isArray(value)) return undefined;
  const { identityFields } = kind.entries;
  if (identityFields.includes(third) || (typeof fourth === 'string' && identityFields.includes(`${third}.${fourth}`))) return undefined;
  const key = keyOf(kind.kind, value[second] as Record<string, unknown> | undefined);
  return key === undefined ? undefined : { section: kind.kind, key, field: third };
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
  // What runs on a schedule (`ResourceKind.runs`: the routines) stays as the target has it where the source must keep it paused.
  if (effectivePolicies(config, source.name).policies.routines?.requirePaused === true) {
    for (const kind of REGISTRY.values()) {
      const field = kind.export?.pausedField;
      if (field === undefined) continue;
      for (const run of kind.runs?.(config) ?? []) add({ kind: kind.kind, key: run.name, field, reason: `${source.name}'s policy routines.requirePaused` });
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
