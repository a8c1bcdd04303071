// Promotion, the reading part: read the source environment's live state for the kinds the config
// declares (and the routine owners it names), map it through names, and return the target's
// loaded config with that desired state. `steward diff` plans with it; `steward apply` of a
// promotion plan rebuilds it to check that the source has not changed.
import type { PlatformApi } from '../api/platform.js';
import type { Whoami } from '../api/types.js';
import type { EnvironmentConfig, Kind, LoadedConfig, StewardConfig } from '../config/types.js';
import { closest, listNames } from '../config/suggest.js';
import { StewardError } from '../errors.js';
import { toConfigSections } from '../export/mapping.js';
import { ownersIn, readSnapshot } from '../export/snapshot.js';
import { REGISTRY } from '../kinds/registry.js';
import { selectKinds } from '../engine/planner.js';
import { refuseUnplannable } from '../resolve/preflight.js';
import type { UnhealthyObject } from '../model/kind.js';
import type { PlanWarning } from '../model/plan.js';
import { fieldsToHold, heldSummary, type HeldField } from './held.js';
import { promotedConfig, sectionsDigest } from './promotion.js';

export interface Promotion {
  /** The target's loaded config, its desired state replaced by the source's. */
  loaded: LoadedConfig;
  /** Digest of the source's state as mapped (see sectionsDigest). */
  sourceDigest: string;
  warnings: PlanWarning[];
  /** Declared fields kept at the target's own value where the source's differed. */
  held: HeldField[];
  /** Source objects that do not work there, as their kinds find them (routines the platform disabled or whose last run failed); each also a warning. */
  unhealthy: UnhealthyObject[];
}

export interface PromotionOptions {
  /** Refuse (StewardError `promote.unhealthy`) when an object carried does not work in the source (KindExport.health). */
  requireHealthy?: boolean;
}

/** The source environment's settings; throws a clear error for an unknown one or the target itself. */
export function sourceEnvironment(loaded: LoadedConfig, name: string): EnvironmentConfig {
  const declared = Object.keys(loaded.config.environments);
  if (name === loaded.environmentName) {
    throw new StewardError('promote.same-environment', `--against ${name} names the environment being planned; a promotion compares two environments`, 'user', {
      hint: `pass another environment: ${declared.filter((other) => other !== name).join(', ') || 'declare a second one'}`,
    });
  }
  const environment = loaded.config.environments[name];
  if (environment === undefined) {
    const suggestion = closest(name, declared);
    throw new StewardError('promote.unknown-environment', `--against ${name}: unknown environment; this configuration declares ${listNames(declared)}`, 'user', {
      hint: suggestion === undefined ? `pass ${listNames(declared, 'or')}` : `did you mean \`${suggestion}\`?`,
    });
  }
  return environment;
}

/**
 * Reads the source and returns the promotion's desired state for the target. Document and folder
 * links are read and promoted only for the labels whose documents (`documents:`) or folders
 * (`folders:`, by path: the same in every deployment) the config manages, as a plan compares them;
 * other labels are promoted without them.
 */
export async function readPromotion(loaded: LoadedConfig, source: { name: string; api: PlatformApi }, options: PromotionOptions = {}): Promise<Promotion> {
  // Credit controls two deployments of one account share are one setting: nothing to promote, and not read.
  const shared = sharedAccount(loaded, source.name);
  const selected = selectKinds(REGISTRY, loaded).filter((kind) => shared === undefined || kind.accountWide !== true);
  const kinds = selected.map((kind) => kind.kind);
  const owners = ownersIn(loaded.config);
  const checkKey = (whoami: Whoami) => refuseUnplannable(selected, whoami, loaded, `the organization API key of ${source.name}`);
  // Only what the config manages is read where that reads less (the documents of the labels that declare theirs).
  const snapshot = await readSnapshot(source.api, { kinds, owners, declared: loaded.config, checkKey }).catch((error: unknown) => {
    // Say which deployment an unknown user is about: both are read in one command.
    if (!(error instanceof StewardError) || error.code !== 'plan.unknown-user') throw error;
    throw new StewardError(error.code, `${source.name}: ${error.message}`, error.fault, { hint: error.hint, details: error.details });
  });
  // What a promotion cannot carry (a limit of a user SCIM names no e-mail for), and what does not work in the source.
  const read = selected.flatMap((kind) => (kind.export === undefined || snapshot.read[kind.kind] === undefined ? [] : [{ facet: kind.export, live: snapshot.read[kind.kind] }]));
  for (const { facet, live } of read) facet.refusePromotion?.(live, source.name);
  const health = read.flatMap(({ facet: { health: words }, live }) => {
    const found = words?.unhealthy(live) ?? [];
    return words === undefined || found.length === 0 ? [] : [{ words, found }];
  });
  const unhealthy = health.flatMap(({ found }) => found);
  // Refused in the words of the first kind with objects that do not work; the details list every one.
  if (options.requireHealthy === true && health[0] !== undefined) {
    const { message, hint } = health[0].words.refusal(health[0].found, source.name);
    throw new StewardError('promote.unhealthy', message, 'user', { hint, details: { unhealthy } });
  }
  const healthWarnings = health.flatMap(({ words, found }) => found.map((object) => words.warning(object, source.name)));
  const sections = toConfigSections(snapshot);
  const sourceSide = { name: source.name, environment: sourceEnvironment(loaded, source.name) };
  const targetSide = { name: loaded.environmentName, environment: loaded.environment };
  // The digest is of the source's state as read, before anything is held back.
  const sourceDigest = sectionsDigest(sections);
  const promoted = promotedConfig({
    config: loaded.config,
    source: sourceSide,
    target: targetSide,
    sections,
    hold: fieldsToHold(loaded.config, loaded.variableReferences ?? [], sourceSide, targetSide),
  });
  // Each kind of the whole account that the config has a section for (an empty one too), left out above, says so.
  const sharedNotes: PlanWarning[] =
    shared === undefined
      ? []
      : [...REGISTRY.values()].flatMap((kind) =>
          kind.accountWide === true && loaded.config[kind.kind as keyof StewardConfig] !== undefined
            ? kind.export?.sharedNote?.({ source: source.name, target: loaded.environmentName, account: shared }) ?? []
            : [],
        );
  const heldNote: PlanWarning[] = promoted.held.length === 0 ? [] : [{ code: 'promote.held', message: heldSummary(promoted.held, loaded.environmentName) }];
  return {
    loaded: { ...loaded, config: promoted.config, environment: promoted.environment, locate: locateByName(loaded, promoted.config) },
    sourceDigest,
    warnings: [...sharedNotes, ...heldNote, ...healthWarnings, ...promoted.warnings],
    held: promoted.held,
    unhealthy,
  };
}

/** The account the source and target environments share, if they name one. */
function sharedAccount(loaded: LoadedConfig, sourceName: string): string | undefined {
  const account = loaded.environment.account;
  return account !== undefined && sourceEnvironment(loaded, sourceName).account === account ? account : undefined;
}

/**
 * Positions in the promoted config are those of the declared entry the promoted one is (a routine,
 * label, limit or group of the same name, as the kind names its entries; the promoted entries come
 * from the source, not from a file); none for objects the config lacks.
 */
function locateByName(loaded: LoadedConfig, promoted: StewardConfig): LoadedConfig['locate'] {
  const listOf = (config: StewardConfig, section: string): readonly Readonly<Record<string, unknown>>[] => {
    const value: unknown = config[section as keyof StewardConfig];
    return Array.isArray(value) ? value : [];
  };
  return (path) => {
    const [section, index, ...rest] = path;
    const entries = typeof section === 'string' ? REGISTRY.get(section as Kind)?.entries : undefined;
    if (entries === undefined || typeof section !== 'string' || typeof index !== 'number') return loaded.locate(path);
    const entry = listOf(promoted, section)[index];
    const key = entry === undefined ? undefined : entries.keyOf(entry);
    const declared = key === undefined ? -1 : listOf(loaded.config, section).findIndex((candidate) => entries.hasKey(candidate, key));
    return declared < 0 ? undefined : loaded.locate([section, declared, ...rest]);
  };
}
