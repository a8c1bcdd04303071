// Live state → configuration. Each kind writes its own section (ResourceKind.export.section): the
// inverse of its `desired`, so that a configuration made from these sections plans to nothing
// against the state it was read from. Here they are put together, in the order a config lists them.
import type { StepKind } from '../model/plan.js';
import { KINDS, type Kind, type StewardConfig } from '../config/types.js';
import { REGISTRY } from '../kinds/registry.js';
import type { ResourceKind } from '../model/kind.js';
import type { LiveSnapshot } from './snapshot.js';

/** The kind sections of a configuration (everything but `version`, `environments`, `prune` and the like). */
export type ConfigSections = Pick<StewardConfig, Extract<Kind, keyof StewardConfig>>;

/**
 * The kinds in the order a configuration lists its sections (KINDS, the order a user reads about
 * them), then any other the registry has, in its order.
 */
export function inSectionOrder(registry: ReadonlyMap<StepKind, ResourceKind>): ResourceKind[] {
  const rank = (kind: ResourceKind) => {
    const index = (KINDS as readonly Kind[]).indexOf(kind.kind);
    return index < 0 ? KINDS.length : index;
  };
  return [...registry.values()].map((kind, index) => ({ kind, index })).sort((a, b) => rank(a.kind) - rank(b.kind) || a.index - b.index).map(({ kind }) => kind);
}

/** The section a kind writes: its own, or that of the kind it is part of (a label's documents go into its entry). */
export function sectionOf(kind: ResourceKind): string {
  return kind.targeting.partOf ?? kind.kind;
}

/** The sections of a snapshot: one for each kind read, each part written into its kind's. Pure. */
export function toConfigSections(snapshot: LiveSnapshot, registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): ConfigSections {
  const sections: Record<string, unknown> = {};
  for (const kind of inSectionOrder(registry)) {
    const read = snapshot.read[kind.kind];
    if (read === undefined || kind.export === undefined) continue;
    const name = sectionOf(kind);
    sections[name] = kind.export.section(read, { section: sections[name], whole: snapshot.asked.includes(kind.kind) });
  }
  return sections as ConfigSections;
}
