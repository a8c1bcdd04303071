// Promotion, the pure part: another environment's live state (as configuration sections, named
// by e-mail and name) becomes the desired state of the target. Ids go through the variables of
// both environments; the config still decides what is pruned and what is protected.
import { createHash } from 'node:crypto';
import { PRUNABLE_KINDS } from '../config/types.js';
import { REGISTRY } from '../kinds/registry.js';
import type { EnvironmentConfig, Kind, PrunableKind, StewardConfig } from '../config/types.js';
import { translateIds } from '../export/ids.js';
import { inSectionOrder, sectionOf, type ConfigSections } from '../export/mapping.js';
import type { ResourceKind } from '../model/kind.js';
import type { PlanWarning } from '../model/plan.js';
import { keyOf, type HeldField } from './held.js';

export interface PromotionInput {
  /** The loaded configuration (its environments, prune settings and protect flags are kept). */
  config: StewardConfig;
  source: { name: string; environment: EnvironmentConfig };
  target: { name: string; environment: EnvironmentConfig };
  /** The source's live state, mapped with the source's ids. */
  sections: ConfigSections;
  /** Declared fields kept at the target's value (held.ts): per-environment values stay home. */
  hold?: readonly HeldField[];
}

export interface PromotedState {
  /** The configuration to plan the target against. */
  config: StewardConfig;
  /** The target environment, also protecting every object the config marks `protect: true`. */
  environment: EnvironmentConfig;
  warnings: PlanWarning[];
  /** The held fields whose source value differed: what the promotion kept back. */
  held: HeldField[];
}

/**
 * The desired state of a promotion: the source's sections with the target's ids, the config's
 * `prune`, and its protection (per-object `protect`, `renamedFrom` and `pruneDocuments` carried
 * over from the declared entry of the same name, as each kind matches its entries). Throws for an
 * id no variable maps (see translateIds). Pure.
 */
export function promotedConfig(input: PromotionInput): PromotedState {
  const { config } = input;
  const source = { name: input.source.name, variables: input.source.environment.variables ?? {} };
  const target = { name: input.target.name, variables: input.target.environment.variables ?? {} };
  const translated: Record<string, unknown> = translateIds(input.sections, source, target);
  const promoted: Record<string, unknown> = {};
  for (const kind of inSectionOrder(REGISTRY)) {
    // A part (a label's documents) is promoted in the section of the kind it belongs to.
    if (sectionOf(kind) !== kind.kind || translated[kind.kind] === undefined) continue;
    promoted[kind.kind] = withDeclaredFlags(kind, translated[kind.kind], config);
  }
  const sections = promoted as ConfigSections;
  const held = holdFields(sections, config, input.hold ?? []);
  const undeclared = leaveUndeclared(sections, config);
  const environment = withProtection(input.target.environment, config, undeclared);
  return {
    config: {
      version: 1,
      environments: { ...config.environments, [input.target.name]: environment },
      ...sections,
      ...(config.prune === undefined ? {} : { prune: config.prune }),
      ...(config.ignore === undefined ? {} : { ignore: config.ignore }),
      ...(config.policies === undefined ? {} : { policies: config.policies }),
    },
    environment,
    warnings: [...undeclaredWarnings(undeclared, input), ...kindWarnings(input)],
    held,
  };
}

/**
 * Sets each held field of a promoted object to the target's declared value (or takes it away
 * where the target declares none, so its default holds); returns those whose source value
 * differed (the ones a promotion kept back). An object the source lacks holds nothing.
 */
function holdFields(sections: ConfigSections, config: StewardConfig, hold: readonly HeldField[]): HeldField[] {
  const kept: HeldField[] = [];
  const held = (entry: Record<string, unknown>, declared: Record<string, unknown>, field: string): Record<string, unknown> | undefined => {
    if (field in declared) return canonical(entry[field]) === canonical(declared[field]) ? undefined : { ...entry, [field]: declared[field] };
    if (!(field in entry)) return undefined;
    const { [field]: _dropped, ...rest } = entry;
    return rest;
  };
  for (const entry of hold) {
    const section = entry.kind as keyof ConfigSections;
    const value: unknown = sections[section];
    if (value === undefined) continue;
    // A kind that is one object (credit controls): the held field is one of its settings.
    if (!Array.isArray(value)) {
      const declared = config[section] as Record<string, unknown> | undefined;
      const replaced = declared === undefined ? undefined : held(value as Record<string, unknown>, declared, entry.field);
      if (replaced === undefined) continue;
      Object.assign(sections, { [section]: replaced });
      kept.push(entry);
      continue;
    }
    const declared = entryOf(config[section], entry.kind, entry.key);
    if (declared === undefined) continue;
    const list = value as Record<string, unknown>[];
    const index = list.findIndex((candidate) => entryOf([candidate], entry.kind, entry.key) !== undefined);
    const replaced = index === -1 ? undefined : held(list[index]!, declared, entry.field);
    if (replaced === undefined) continue;
    Object.assign(sections, { [section]: list.with(index, replaced) });
    kept.push(entry);
  }
  return kept;
}

/** The entry of a list kind's section that `key` names, as the config names it (e-mails and label names in any case). */
function entryOf(value: unknown, kind: Kind, key: string): Record<string, unknown> | undefined {
  const entries = REGISTRY.get(kind)?.entries;
  if (entries === undefined || !Array.isArray(value)) return undefined;
  return (value as Record<string, unknown>[]).find((entry) => entries.hasKey(entry, key));
}

/** sha256 of sections in a canonical form: equal for equal states, whatever the key order. */
export function sectionsDigest(sections: ConfigSections): string {
  return `sha256:${createHash('sha256').update(canonical(sections)).digest('hex')}`;
}

/**
 * Each promoted entry of a list kind with the config's own flags for it (KindExport.promoted),
 * taken from the entry the config declares for it: the one its key names (entryOf), unless the
 * kind matches them its own way. An entry the config does not declare, and a kind that is one
 * object, travel as they are.
 */
function withDeclaredFlags(kind: ResourceKind, section: unknown, config: StewardConfig): unknown {
  const { entries } = kind;
  const promoted = kind.export?.promoted;
  if (entries === undefined || promoted === undefined || !Array.isArray(section)) return section;
  const list = section as readonly Readonly<Record<string, unknown>>[];
  const declared: unknown = config[kind.kind as keyof StewardConfig];
  const declaredFor = (entry: Readonly<Record<string, unknown>>) => {
    if (promoted.declaredFor !== undefined) return promoted.declaredFor(entry, Array.isArray(declared) ? declared : []);
    const key = entries.keyOf(entry);
    return key === undefined ? undefined : entryOf(declared, kind.kind, key);
  };
  return list.map((entry) => {
    const own = declaredFor(entry);
    return own === undefined ? entry : promoted.withFlags(entry, own, list);
  });
}

/**
 * The target environment, protecting by name every object the config marks `protect: true`:
 * one the source lacks would otherwise be pruned, though the config forbids deleting it.
 */
function withProtection(environment: EnvironmentConfig, config: StewardConfig, undeclared: Readonly<Record<PrunableKind, string[]>>): EnvironmentConfig {
  const flagged = Object.fromEntries(
    PRUNABLE_KINDS.map((kind) => {
      const entries = (config[kind] ?? []) as readonly Readonly<Record<string, unknown>>[];
      return [kind, entries.filter((entry) => entry.protect === true).flatMap((entry) => keyOf(kind, entry) ?? [])];
    }),
  ) as Record<PrunableKind, string[]>;
  for (const kind of PRUNABLE_KINDS) flagged[kind].push(...undeclared[kind]);
  const protect = { ...environment.protect };
  for (const kind of Object.keys(flagged) as PrunableKind[]) {
    const rule = protect[kind];
    if (flagged[kind].length === 0 || rule === true) continue;
    protect[kind] = [...new Set([...(rule ?? []), ...flagged[kind]])];
  }
  return Object.keys(protect).length === 0 ? environment : { ...environment, protect };
}

/**
 * The target's prune settings hold: where the config prunes a kind, an object the source has and
 * the config does not declare is not promoted (the target's own plan would delete it again). It
 * is taken out of the desired state, and returned to be protected, so a copy the target already
 * has is left as it is too. Objects of kinds the config does not prune travel as they are.
 */
function leaveUndeclared(sections: ConfigSections, config: StewardConfig): Record<PrunableKind, string[]> {
  const left = Object.fromEntries(PRUNABLE_KINDS.map((kind): [PrunableKind, string[]] => [kind, []])) as Record<PrunableKind, string[]>;
  for (const kind of PRUNABLE_KINDS) {
    const entries = sections[kind] as Record<string, unknown>[] | undefined;
    if (config.prune?.[kind] !== true || entries === undefined) continue;
    const kept = entries.filter((entry) => {
      const key = keyOf(kind, entry);
      if (key === undefined || entryOf(config[kind], kind, key) !== undefined) return true;
      left[kind].push(key);
      return false;
    });
    (sections as Record<string, unknown>)[kind] = kept;
  }
  return left;
}

/** One line naming what a promotion left to the target's own plan, if anything. */
function undeclaredWarnings(undeclared: Readonly<Record<PrunableKind, string[]>>, input: PromotionInput): PlanWarning[] {
  const kinds = PRUNABLE_KINDS.filter((kind) => undeclared[kind].length > 0);
  if (kinds.length === 0) return [];
  const count = kinds.reduce((total, kind) => total + undeclared[kind].length, 0);
  const named = kinds.map((kind) => `${REGISTRY.get(kind)!.presentation.noun[undeclared[kind].length === 1 ? 0 : 1]} ${undeclared[kind].map((name) => `"${name}"`).join(', ')}`).join('; ');
  return [
    {
      code: 'promote.undeclared',
      message: `left to ${input.target.name}'s own plan: ${count === 1 ? 'an object' : `${count} objects`} ${input.source.name} has and the config does not declare (${named}); the config prunes undeclared ones, so a promotion neither creates nor deletes them (declare one to promote it)`,
    },
  ];
}

/** What the kinds warn of in what the source gives them, against the config (KindExport.promotionWarnings). */
function kindWarnings(input: PromotionInput): PlanWarning[] {
  const context = { config: input.config, source: input.source.name, target: input.target.name };
  const sections: Readonly<Record<string, unknown>> = input.sections;
  return inSectionOrder(REGISTRY).flatMap((kind) => {
    const section = sections[sectionOf(kind)];
    return section === undefined ? [] : kind.export?.promotionWarnings?.(section, context) ?? [];
  });
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, child]) => child !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonical(child)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
