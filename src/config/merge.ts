// Merges the files of a configuration into one value: sections that are maps are merged key by
// key (the same key in two files is an error naming both), lists are concatenated in file order.
// Remembers where every part came from, so later checks can point into the right file.
import { locateInDocument, type PositionTarget } from './positions.js';
import { isRecord, type ConfigSource } from './sources.js';
import type { ConfigPath, Diagnostic, SourceLocation } from './types.js';

/** Top-level sections that are lists of objects (concatenated across files). */
export const LIST_SECTIONS = ['userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits', 'routines', 'labels'] as const;
/** Top-level sections that are maps (merged key by key across files). */
export const MAP_SECTIONS = ['environments', 'creditControls', 'prune', 'ignore', 'policies'] as const;

/** Where a part of the merged configuration was written. */
export interface Origin {
  source: ConfigSource;
  /** The path inside that file. */
  path: ConfigPath;
}

export interface MergedConfig {
  value: Record<string, unknown>;
  files: readonly ConfigSource[];
  /** The file and in-file path a merged path came from (the first file for the root). */
  originOf(path: ConfigPath): Origin | undefined;
  /** Cross-file duplicates. */
  diagnostics: Diagnostic[];
}

const DUPLICATE_CODE: Record<(typeof MAP_SECTIONS)[number], string> = {
  environments: 'environment.duplicate',
  creditControls: 'creditControls.duplicate',
  prune: 'prune.duplicate',
  ignore: 'ignore.duplicate',
  policies: 'policies.duplicate',
};

/** Merges parsed files (in order); non-map files and mistyped sections are skipped (the schema reports them). */
export function mergeSources(files: readonly ConfigSource[]): MergedConfig {
  const value: Record<string, unknown> = {};
  const sectionOrigin = new Map<string, ConfigSource>();
  const entryOrigin = new Map<string, Map<string, ConfigSource>>();
  const itemOrigin = new Map<string, { source: ConfigSource; index: number }[]>();
  const diagnostics: Diagnostic[] = [];

  for (const source of files) {
    if (!isRecord(source.value)) continue;
    for (const [key, sectionValue] of Object.entries(source.value)) {
      if ((LIST_SECTIONS as readonly string[]).includes(key)) {
        if (!Array.isArray(sectionValue)) continue;
        if (!sectionOrigin.has(key)) sectionOrigin.set(key, source);
        const list = (value[key] ??= []) as unknown[];
        const origins = itemOrigin.get(key) ?? [];
        sectionValue.forEach((item, index) => {
          list.push(item);
          origins.push({ source, index });
        });
        itemOrigin.set(key, origins);
      } else if ((MAP_SECTIONS as readonly string[]).includes(key)) {
        if (!isRecord(sectionValue)) continue;
        if (!sectionOrigin.has(key)) sectionOrigin.set(key, source);
        if (!Object.hasOwn(value, key)) setOwn(value, key, {});
        const merged = value[key] as Record<string, unknown>;
        const origins = entryOrigin.get(key) ?? new Map<string, ConfigSource>();
        for (const [entry, entryValue] of Object.entries(sectionValue)) {
          const first = origins.get(entry);
          if (first !== undefined) {
            diagnostics.push(duplicateEntry(key as (typeof MAP_SECTIONS)[number], entry, first, source));
            continue;
          }
          origins.set(entry, source);
          setOwn(merged, entry, entryValue);
        }
        entryOrigin.set(key, origins);
      } else if (!Object.hasOwn(value, key)) {
        sectionOrigin.set(key, source);
        setOwn(value, key, sectionValue);
      }
    }
  }

  const firstFile = files[0];
  const originOf = (path: ConfigPath): Origin | undefined => {
    const [section, entry, ...rest] = path;
    if (section === undefined) return firstFile === undefined ? undefined : { source: firstFile, path: [] };
    const sectionSource = sectionOrigin.get(String(section)) ?? firstFile;
    if (sectionSource === undefined) return undefined;
    if (entry === undefined) return { source: sectionSource, path };
    const items = itemOrigin.get(String(section));
    if (items !== undefined && typeof entry === 'number') {
      const item = items[entry];
      return item === undefined ? { source: sectionSource, path: [section] } : { source: item.source, path: [section, item.index, ...rest] };
    }
    const entrySource = entryOrigin.get(String(section))?.get(String(entry));
    return { source: entrySource ?? sectionSource, path };
  };
  return { value, files, originOf, diagnostics };
}

/**
 * Sets `key` as an own, enumerable property whatever its name: assigning `__proto__` would
 * replace the record's prototype instead, and the entry would vanish from its keys.
 */
function setOwn(record: Record<string, unknown>, key: string, entry: unknown): void {
  Object.defineProperty(record, key, { value: entry, enumerable: true, writable: true, configurable: true });
}

/** The position of a merged path (nearest existing ancestor), in the file it came from. */
export function locateMerged(merged: MergedConfig, path: ConfigPath, target: PositionTarget = 'value'): SourceLocation | undefined {
  const origin = merged.originOf(path);
  return origin === undefined ? undefined : locateInDocument(origin.source, origin.path, target);
}

/** `name:line:col` of a merged path, for messages that name a second location. */
export function describeLocation(merged: MergedConfig, path: ConfigPath, target: PositionTarget = 'value'): string {
  const origin = merged.originOf(path);
  if (origin === undefined) return 'an earlier declaration';
  const at = locateInDocument(origin.source, origin.path, target);
  return `${origin.source.name}:${at.line}:${at.col}`;
}

function duplicateEntry(section: (typeof MAP_SECTIONS)[number], entry: string, first: ConfigSource, second: ConfigSource): Diagnostic {
  const firstAt = locateInDocument(first, [section, entry], 'key');
  const what = section === 'environments' ? `environment \`${entry}\`` : `\`${section}.${entry}\``;
  return {
    severity: 'error',
    code: DUPLICATE_CODE[section],
    summary: `${what} is declared twice; the first declaration is at ${first.name}:${firstAt.line}:${firstAt.col}`,
    hint: 'declare it in one file only',
    location: locateInDocument(second, [section, entry], 'key'),
  };
}
