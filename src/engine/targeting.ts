// `--target KIND[/NAME]` and `--exclude KIND[/NAME]`: restrict a plan (and so an apply) to some
// kinds or objects. Excluded kinds are not even read. Steps a targeted step depends on are kept,
// like Terraform's -target, so a targeted plan can always be applied on its own. A name that
// names nothing is an error, never a quiet "No changes": checked against the config before
// anything is read, and, for a kind the config prunes, against the live objects it would delete.
import { KINDS, type Kind, type StewardConfig } from '../config/types.js';
import { REGISTRY } from '../kinds/registry.js';
import type { KindTargeting, ResourceKind } from '../model/kind.js';
import { labelKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { closest } from '../config/suggest.js';
import type { PlanStep, PlanWarning, StepKind } from '../model/plan.js';

export interface Selector {
  kind: Kind;
  /** An object's name: routine or label name, user e-mail; compared case-insensitively. */
  name?: string;
}

export interface Targeting {
  include: Selector[];
  exclude: Selector[];
  /** Set by checkTargets: named selectors of pruned kinds that the config does not declare. */
  undeclared?: Selector[];
  /** Set by checkTargets: the names the config declares, per kind, for did-you-mean. */
  declared?: Record<Kind, string[]>;
}

/** Parses `KIND` or `KIND/NAME` selectors, with a did-you-mean for a misspelt kind. */
export function parseSelectors(specs: readonly string[], option: string): Selector[] {
  return specs.map((spec) => {
    const slash = spec.indexOf('/');
    const kind = slash === -1 ? spec : spec.slice(0, slash);
    const name = slash === -1 ? undefined : spec.slice(slash + 1);
    if (!(KINDS as readonly string[]).includes(kind)) {
      const suggestion = closest(kind, KINDS);
      throw new StewardError('cli.target', `${option} ${spec}: unknown kind "${kind}"`, 'user', {
        hint: suggestion ? `did you mean \`${suggestion}\`? Kinds: ${KINDS.join(', ')}` : `kinds: ${KINDS.join(', ')}`,
      });
    }
    if (name === '') throw new StewardError('cli.target', `${option} ${spec}: the name after "/" is empty`, 'user');
    return name === undefined ? { kind: kind as Kind } : { kind: kind as Kind, name };
  });
}

type Registry = ReadonlyMap<StepKind, ResourceKind>;

function targetingOf(registry: Registry, kind: StepKind): KindTargeting {
  const found = registry.get(kind);
  if (found === undefined) throw new Error(`no resource kind ${kind} is registered`);
  return found.targeting;
}

/**
 * Checks every named selector against the config before anything is read: a name the config does
 * not declare is an error with a did-you-mean, unless the kind is pruned (then it may name a live
 * object to delete, which filterSteps checks once the live state is read).
 */
export function checkTargets(targeting: Targeting, config: StewardConfig, registry: Registry = REGISTRY): Targeting {
  const names = Object.fromEntries([...registry.values()].map((kind) => [kind.kind, kind.targeting.names(config) ?? []])) as Record<Kind, string[]>;
  const undeclared: Selector[] = [];
  const check = (option: string) => (selector: Selector) => {
    if (selector.name === undefined) return;
    const spec = `${selector.kind}/${selector.name}`;
    const kind = targetingOf(registry, selector.kind);
    const declared = kind.names(config);
    if (declared === undefined) {
      throw new StewardError('cli.target', `${option} ${spec}: ${kind.noun} are one object and have no name`, 'user', { hint: `${option} ${selector.kind}` });
    }
    if (declared.some((name) => labelKey(name) === labelKey(selector.name!))) return;
    if (kind.mayName?.(selector.name, config) === true) return;
    if (kind.pruned(config)) {
      undeclared.push(selector);
      return;
    }
    const suggestion = closest(selector.name, declared);
    const noun = kind.noun;
    throw new StewardError('cli.target', `${option} ${spec}: the configuration declares no ${noun} "${selector.name}"`, 'user', {
      hint: suggestion !== undefined ? `did you mean \`${option} ${selector.kind}/${suggestion}\`?` : declared.length === 0 ? `it declares no ${noun} at all` : `it declares ${listSome(declared)}`,
    });
  };
  targeting.include.forEach(check('--target'));
  targeting.exclude.forEach(check('--exclude'));
  return { ...targeting, undeclared, declared: names };
}

function listSome(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => `"${name}"`).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/** The kinds to plan (and read); undefined when nothing restricts them. */
export function targetedKinds(targeting: Targeting, registry: Registry = REGISTRY): Kind[] | undefined {
  if (targeting.include.length === 0 && targeting.exclude.length === 0) return undefined;
  const all = [...registry.values()].map((kind) => kind.kind);
  const targeted = withCompanions(targeting.include.map((selector) => selector.kind), registry);
  // A part is planned with what it belongs to (its steps depend on it).
  const owners = targeted.flatMap((kind) => (registry.get(kind)?.targeting.partOf === undefined ? [] : [registry.get(kind)!.targeting.partOf!]));
  const included = targeting.include.length === 0 ? all : [...targeted, ...owners];
  const excluded = withCompanions(targeting.exclude.filter((selector) => selector.name === undefined).map((selector) => selector.kind), registry);
  return all.filter((kind) => included.includes(kind) && !excluded.includes(kind));
}

/** Keeps the targeted steps and everything they depend on, minus the excluded ones. */
export function filterSteps(steps: readonly PlanStep[], targeting: Targeting, registry: Registry = REGISTRY): { steps: PlanStep[]; warnings: PlanWarning[] } {
  if (targeting.include.length === 0 && targeting.exclude.length === 0) return { steps: [...steps], warnings: [] };
  const covers = (selector: Selector, step: PlanStep) => selectorCovers(selector, step, registry);
  const named = (selectors: Selector[], step: PlanStep) => selectors.some((selector) => covers(selector, step));
  const wanted = new Set(
    steps
      .filter((step) => targeting.include.length === 0 || named(targeting.include, step))
      .filter((step) => !named(targeting.exclude, step))
      .map((step) => step.id),
  );
  const byId = new Map(steps.map((step) => [step.id, step]));
  const queue = [...wanted];
  while (queue.length > 0) {
    for (const dependency of byId.get(queue.shift()!)?.dependsOn ?? []) {
      if (!wanted.has(dependency)) {
        wanted.add(dependency);
        queue.push(dependency);
      }
    }
  }
  const unmatched = [...targeting.include.map((selector) => ['--target', selector] as const), ...targeting.exclude.map((selector) => ['--exclude', selector] as const)]
    .filter(([, selector]) => selector.name !== undefined && !steps.some((step) => covers(selector, step)));
  // Not in the config, and no live object that prune deletes: the name names nothing.
  for (const [option, selector] of unmatched) {
    if (!(targeting.undeclared ?? []).includes(selector)) continue;
    const known = [...(targeting.declared?.[selector.kind] ?? []), ...steps.filter((step) => step.kind === selector.kind).map((step) => stepName(step, registry))];
    const suggestion = closest(selector.name!, known);
    throw new StewardError('cli.target', `${option} ${selector.kind}/${selector.name}: names nothing: the configuration does not declare it, and the instance has no such ${targetingOf(registry, selector.kind).noun} for prune to delete`, 'user', {
      hint: suggestion === undefined ? 'check the spelling; names compare case-insensitively' : `did you mean \`${option} ${selector.kind}/${suggestion}\`?`,
    });
  }
  const warnings = unmatched.map(([option, selector]) => ({
    code: 'target.no-match',
    message: `${option} ${selector.kind}/${selector.name} matches no change: that object already matches the configuration`,
  }));
  return { steps: steps.filter((step) => wanted.has(step.id)), warnings };
}

/** The name a selector would use for a step's object. */
function stepName(step: PlanStep, registry: Registry): string {
  const named = targetingOf(registry, step.kind).stepName;
  if (named !== undefined) return named(step);
  return step.key.split('/').at(-1) ?? step.key;
}

function selectorCovers(selector: Selector, step: PlanStep, registry: Registry): boolean {
  if (!withCompanions([selector.kind], registry).some((kind) => kind === step.kind)) return false;
  if (selector.name === undefined) return true;
  const name = labelKey(selector.name);
  if (targetingOf(registry, step.kind).stepName !== undefined) return labelKey(stepName(step, registry)) === name;
  return labelKey(step.key) === name || labelKey(step.key.split('/').at(-1) ?? '') === name;
}

/** The kinds with the kinds that are part of them (a label's document and folder links). */
function withCompanions(kinds: Kind[], registry: Registry): Kind[] {
  const parts = [...registry.values()].filter((kind) => kind.targeting.partOf !== undefined);
  return [...new Set(kinds.flatMap((kind) => [kind, ...parts.filter((part) => part.targeting.partOf === kind).map((part) => part.kind)]))];
}
