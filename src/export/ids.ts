// Ids that differ between deployments and the environment variables that name them. Each kind says
// which ids of its section differ and words what no variable names (KindExport.environmentIds);
// here every kind's section goes through it, in the order of the sections. Export writes
// `${var.NAME}` for an id a variable holds; promotion turns a source id into the target's id
// through the variable of the same name.
import type { IdEnvironment } from '../config/environmentIds.js';
import { REGISTRY } from '../kinds/registry.js';
import type { ResourceKind } from '../model/kind.js';
import type { StepKind } from '../model/plan.js';
import { inSectionOrder, sectionOf, type ConfigSections } from './mapping.js';

/**
 * Export: each id a variable of the environment holds becomes `${var.NAME}` (the first such
 * variable), so the file plans against every environment; other ids stay literal, with a
 * warning. Run after escapeReferences: the references written here must stay references. Pure.
 */
export function referVariables(
  sections: ConfigSections,
  environment: IdEnvironment,
  registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY,
): { sections: ConfigSections; warnings: string[] } {
  const result: Record<string, unknown> = { ...sections };
  const warnings: string[] = [];
  for (const kind of inSectionOrder(registry)) {
    const ids = kind.export?.environmentIds;
    const name = sectionOf(kind);
    if (ids === undefined || result[name] === undefined) continue;
    const referred = ids.refer(result[name], environment);
    result[name] = referred.section;
    warnings.push(...referred.warnings);
  }
  return { sections: result as ConfigSections, warnings };
}

/**
 * Promotion: each id of the source environment becomes the target's id, through the source
 * variable(s) holding it and the target's variable of the same name. Throws the kind's error,
 * naming the object and the id, for an id no variable maps or two map differently. Pure.
 */
export function translateIds(
  sections: ConfigSections,
  source: IdEnvironment,
  target: IdEnvironment,
  registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY,
): ConfigSections {
  const result: Record<string, unknown> = { ...sections };
  for (const kind of inSectionOrder(registry)) {
    const ids = kind.export?.environmentIds;
    const name = sectionOf(kind);
    if (ids !== undefined && result[name] !== undefined) result[name] = ids.translate(result[name], source, target);
  }
  return result as ConfigSections;
}

/** Writes every `${` of live text as `$${`, so loading the file gives back the text as it was. Pure. */
export function escapeReferences<T>(value: T): T {
  // A function replacement: in a replacement string, `$$` would mean a single `$`.
  if (typeof value === 'string') return value.replaceAll('${', () => '$${') as T;
  if (Array.isArray(value)) return value.map((item) => escapeReferences(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, escapeReferences(child)])) as T;
  }
  return value;
}
