// `--target KIND[/NAME]` and `--exclude KIND[/NAME]`: restrict a plan (and so an apply) to some
// kinds or objects. Excluded kinds are not even read. Steps a targeted step depends on are kept,
// like Terraform's -target, so a targeted plan can always be applied on its own.
import { KINDS, type Kind } from '../config/types.js';
import { labelKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { closest } from '../config/suggest.js';
import type { PlanStep, PlanWarning } from './types.js';

export interface Selector {
  kind: Kind;
  /** An object's name: routine or label name, user e-mail; compared case-insensitively. */
  name?: string;
}

export interface Targeting {
  include: Selector[];
  exclude: Selector[];
}

/** Document links belong to their label: targeting labels targets its links too. */
const COMPANIONS: Partial<Record<Kind, Kind[]>> = { labels: ['documentLabels'] };

/** Kinds whose steps a targeted kind's steps may depend on, so they are planned too. */
const DEPENDENCIES: Partial<Record<Kind, Kind[]>> = { documentLabels: ['labels'] };

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
  // A named selector that matches nothing is most often a typo; say so instead of a quiet "No changes".
  const warnings = [...targeting.include.map((selector) => ['--target', selector] as const), ...targeting.exclude.map((selector) => ['--exclude', selector] as const)]
    .filter(([, selector]) => selector.name !== undefined && !steps.some((step) => selectorCovers(selector, step)))
    .map(([option, selector]) => ({
      code: 'target.no-match',
      message: `${option} ${selector.kind}/${selector.name} matches no change: either that object needs none, or the name is misspelt`,
    }));
  return { steps: steps.filter((step) => wanted.has(step.id)), warnings };
}

function selectorCovers(selector: Selector, step: PlanStep): boolean {
  const kinds = withCompanions([selector.kind]);
  if (!kinds.includes(step.kind)) return false;
  if (selector.name === undefined) return true;
  const name = labelKey(selector.name);
  if (step.kind === 'documentLabels') return labelKey(step.ref.label ?? '') === name;
  return labelKey(step.key) === name || labelKey(step.key.split('/').at(-1) ?? '') === name;
}

function withCompanions(kinds: Kind[]): Kind[] {
  return [...new Set(kinds.flatMap((kind) => [kind, ...(COMPANIONS[kind] ?? [])]))];
}
