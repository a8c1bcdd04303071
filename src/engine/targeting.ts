// `--target KIND[/NAME]` and `--exclude KIND[/NAME]`: restrict a plan (and so an apply) to some
// kinds or objects. Excluded kinds are not even read. Steps a targeted step depends on are kept,
// like Terraform's -target, so a targeted plan can always be applied on its own. A name that
// names nothing is an error, never a quiet "No changes": checked against the config before
// anything is read, and, for a kind the config prunes, against the live objects it would delete.
import { KINDS, type Kind, type StewardConfig } from '../config/types.js';
import { labelKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { closest } from '../config/suggest.js';
import type { PlanStep, PlanWarning } from '../model/plan.js';

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

/** Document and folder links belong to their label: targeting labels targets its links too. */
const COMPANIONS: Partial<Record<Kind, Kind[]>> = { labels: ['documentLabels', 'folderLabels'] };

/** Kinds whose steps a targeted kind's steps may depend on, so they are planned too. */
const DEPENDENCIES: Partial<Record<Kind, Kind[]>> = { documentLabels: ['labels'], folderLabels: ['labels'] };

/** Kinds whose steps are a label on something, named by the label. */
const LABEL_LINKS: ReadonlySet<Kind> = new Set(['documentLabels', 'folderLabels']);

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

/** The names the config declares per kind, compared with labelKey; creditControls has none. */
function declaredNames(config: StewardConfig): Record<Kind, string[]> {
  const labels = (config.labels ?? []).flatMap((label) => [label.name, ...(label.renamedFrom ?? [])]);
  return {
    creditControls: [],
    userCreditLimits: (config.userCreditLimits ?? []).map((limit) => limit.email ?? limit.userId ?? ''),
    userGroupCreditLimits: (config.userGroupCreditLimits ?? []).map((limit) => limit.group ?? limit.userGroupId ?? ''),
    entityGroupCreditLimits: (config.entityGroupCreditLimits ?? []).map((limit) => limit.entity),
    routines: (config.routines ?? []).map((routine) => routine.name),
    labels,
    documentLabels: labels,
    folderLabels: labels,
  };
}

/** Whether undeclared live objects of the kind are deleted, so a name may be a live object only. */
function pruned(config: StewardConfig, kind: Kind): boolean {
  const prune = config.prune ?? {};
  if (kind === 'documentLabels' || kind === 'folderLabels') return prune.labels === true;
  return kind !== 'creditControls' && prune[kind] === true;
}

/**
 * Checks every named selector against the config before anything is read: a name the config does
 * not declare is an error with a did-you-mean, unless the kind is pruned (then it may name a live
 * object to delete, which filterSteps checks once the live state is read).
 */
export function checkTargets(targeting: Targeting, config: StewardConfig): Targeting {
  const names = declaredNames(config);
  const undeclared: Selector[] = [];
  const check = (option: string) => (selector: Selector) => {
    if (selector.name === undefined) return;
    const spec = `${selector.kind}/${selector.name}`;
    if (selector.kind === 'creditControls') {
      throw new StewardError('cli.target', `${option} ${spec}: credit controls are one object and have no name`, 'user', { hint: `${option} creditControls` });
    }
    const declared = names[selector.kind];
    if (declared.some((name) => labelKey(name) === labelKey(selector.name!))) return;
    // A limit declared by user id may be targeted by its user's e-mail, known only once resolved.
    if (selector.kind === 'userCreditLimits' && selector.name.includes('@') && (config.userCreditLimits ?? []).some((limit) => limit.userId !== undefined)) return;
    if (pruned(config, selector.kind)) {
      undeclared.push(selector);
      return;
    }
    const suggestion = closest(selector.name, declared);
    const noun = NOUNS[selector.kind];
    throw new StewardError('cli.target', `${option} ${spec}: the configuration declares no ${noun} "${selector.name}"`, 'user', {
      hint: suggestion !== undefined ? `did you mean \`${option} ${selector.kind}/${suggestion}\`?` : declared.length === 0 ? `it declares no ${noun} at all` : `it declares ${listSome(declared)}`,
    });
  };
  targeting.include.forEach(check('--target'));
  targeting.exclude.forEach(check('--exclude'));
  return { ...targeting, undeclared, declared: names };
}

const NOUNS: Record<Kind, string> = {
  creditControls: 'credit controls',
  userCreditLimits: 'user credit limit for',
  userGroupCreditLimits: 'user group credit limit for',
  entityGroupCreditLimits: 'entity group credit limit for',
  routines: 'routine',
  labels: 'label',
  documentLabels: 'label',
  folderLabels: 'label',
};

function listSome(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => `"${name}"`).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/** The kinds to plan (and read); undefined when nothing restricts them. */
export function targetedKinds(targeting: Targeting): Kind[] | undefined {
  if (targeting.include.length === 0 && targeting.exclude.length === 0) return undefined;
  const targeted = withCompanions(targeting.include.map((selector) => selector.kind));
  const included = targeting.include.length === 0 ? [...KINDS] : [...targeted, ...targeted.flatMap((kind) => DEPENDENCIES[kind] ?? [])];
  const excluded = withCompanions(targeting.exclude.filter((selector) => selector.name === undefined).map((selector) => selector.kind));
  return KINDS.filter((kind) => included.includes(kind) && !excluded.includes(kind));
}

/** Keeps the targeted steps and everything they depend on, minus the excluded ones. */
export function filterSteps(steps: readonly PlanStep[], targeting: Targeting): { steps: PlanStep[]; warnings: PlanWarning[] } {
  if (targeting.include.length === 0 && targeting.exclude.length === 0) return { steps: [...steps], warnings: [] };
  const named = (selectors: Selector[], step: PlanStep) =>
    selectors.some((selector) => selectorCovers(selector, step));
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
    .filter(([, selector]) => selector.name !== undefined && !steps.some((step) => selectorCovers(selector, step)));
  // Not in the config, and no live object that prune deletes: the name names nothing.
  for (const [option, selector] of unmatched) {
    if (!(targeting.undeclared ?? []).includes(selector)) continue;
    const known = [...(targeting.declared?.[selector.kind] ?? []), ...steps.filter((step) => step.kind === selector.kind).map(stepName)];
    const suggestion = closest(selector.name!, known);
    throw new StewardError('cli.target', `${option} ${selector.kind}/${selector.name}: names nothing: the configuration does not declare it, and the instance has no such ${NOUNS[selector.kind]} for prune to delete`, 'user', {
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
function stepName(step: PlanStep): string {
  if (LABEL_LINKS.has(step.kind)) return step.ref.label ?? step.key;
  return step.key.split('/').at(-1) ?? step.key;
}

function selectorCovers(selector: Selector, step: PlanStep): boolean {
  const kinds = withCompanions([selector.kind]);
  if (!kinds.includes(step.kind)) return false;
  if (selector.name === undefined) return true;
  const name = labelKey(selector.name);
  if (LABEL_LINKS.has(step.kind)) return labelKey(step.ref.label ?? '') === name;
  return labelKey(step.key) === name || labelKey(step.key.split('/').at(-1) ?? '') === name;
}

function withCompanions(kinds: Kind[]): Kind[] {
  return [...new Set(kinds.flatMap((kind) => [kind, ...(COMPANIONS[kind] ?? [])]))];
}
