// The schema of a configuration file, assembled from the parts that belong to no kind
// (schemaParts.ts) and what each kind folder declares of its own (kinds/<folder>/configSchema.ts).
// config/ sits below kinds/ and imports none: kinds/configRegistry.ts hands the declarations in,
// so a test may assemble a schema with a kind of its own. Nothing runs this when steward runs:
// `npm run generate` (scripts/generate-config.ts) writes the result to schemas/steward.schema.json,
// which validation reads, and the TypeScript types of the configuration to configTypes.generated.ts.
import type { ExpiryRules } from './expiry.js';
import type { KindConfigCheck } from './findings.js';
import type { IgnoreRules } from './ignore.js';
import { topLevelSchema, type KindParts, type SchemaNode } from './schemaParts.js';

/**
 * What one folder of kinds/ declares of the configuration: the schema's parts, which
 * `npm run generate` assembles here, and what the analysis of every configuration reads of its
 * sections (config/kindRules.ts), handed in by app/config.ts.
 */
export interface KindConfigSchema {
  /**
   * Its kinds, in the order a user reads about them. A kind with no section of its own (a label's
   * document links, declared under `labels:`) is listed all the same: it is a kind `--target` names.
   */
  readonly kinds: readonly string[];
  /** Its top-level sections of a file (`routines:`), by key; each key is one of its kinds. */
  readonly sections: Readonly<Record<string, ConfigSection>>;
  /** The definitions its sections refer to as `#/$defs/NAME`. */
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
  /**
   * Its checks of what the schema cannot say, in the order they run (none is an empty list: each
   * folder says what it checks). Every load runs them (config/semantic.ts), the kinds' in the
   * order of their declarations, after the character check and before the checks of
   * environments, `ignore` and expiry.
   */
  readonly checks: readonly KindConfigCheck[];
}

/** One top-level section of a configuration file. */
export interface ConfigSection {
  /** The schema of the section's value. */
  readonly schema: SchemaNode;
  /**
   * Present for a kind whose undeclared live objects may be deleted or reset: what its entries in
   * `prune`, `ignore` and an environment's `protect` mean, in the schema's words, and the fields
   * its `ignore` lists may name (config/ignore.ts checks them).
   */
  readonly prunable?: {
    readonly prune: string;
    readonly ignore: string;
    readonly protect: string;
    readonly ignoreRules: IgnoreRules;
    /**
     * What its `protect` lists name by e-mail when they do (`user`): a protected name with an `@`
     * must then be an address the platform takes (config/semantic-environments.ts).
     */
    readonly protectsByEmail?: string;
  };
  /** Present when its entries take `until:`: what expiring does to one (config/expiry.ts). */
  readonly expiry?: ExpiryRules;
  /**
   * One entry of the section (a list) as the loaded configuration holds it, once every check has
   * passed: identities the platform compares case-insensitively lower-cased, so a plan never
   * differs by letter case alone, and the defaults the loaded types promise filled in. Absent:
   * entries are loaded as written.
   */
  readonly normalize?: (entry: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Fields of its entries whose text may span lines or be indented (a prompt). The character check
   * allows tabs and line breaks in a field of one of these names wherever it is, and nothing else
   * invisible; every other text is one line.
   */
  readonly multiline?: readonly string[];
}

/** Every kind the declarations name, and those that may be pruned, each in the declarations' order. */
export function configKinds(declarations: readonly KindConfigSchema[]): { kinds: string[]; prunable: string[] } {
  return {
    kinds: declarations.flatMap((declaration) => declaration.kinds),
    prunable: sectionsOf(declarations).flatMap(([kind, section]) => (section.prunable === undefined ? [] : [kind])),
  };
}

/**
 * The schema of one configuration file with these kinds, in their order. Refuses a kind, a section
 * or a definition declared twice (or taking a name the top level has), and a section that is not
 * one of its declaration's kinds.
 */
export function assembleConfigSchema(declarations: readonly KindConfigSchema[]): SchemaNode {
  const empty = topLevelSchema({ sections: {}, prune: {}, ignore: {}, protect: {}, definitions: {} });
  const taken = (part: 'properties' | '$defs') => new Set(Object.keys(empty[part] as object));
  const parts: KindParts = { sections: {}, prune: {}, ignore: {}, protect: {}, definitions: {} };
  const kinds = new Set<string>();
  for (const declaration of declarations) {
    for (const kind of declaration.kinds) {
      if (kinds.has(kind)) throw new Error(`the config schema declares kind ${kind} twice`);
      kinds.add(kind);
    }
  }
  const keys = taken('properties');
  for (const [key, section] of sectionsOf(declarations)) {
    if (keys.has(key)) throw new Error(`the config schema declares the top-level key ${key} twice`);
    keys.add(key);
    parts.sections[key] = section.schema;
    if (section.prunable === undefined) continue;
    parts.prune[key] = { description: section.prunable.prune, $ref: '#/$defs/boolean' };
    parts.ignore[key] = { description: section.prunable.ignore, $ref: '#/$defs/ignoreList' };
    parts.protect[key] = { description: section.prunable.protect, $ref: '#/$defs/protectList' };
  }
  const names = taken('$defs');
  for (const [name, definition] of declarations.flatMap((declaration) => Object.entries(declaration.definitions ?? {}))) {
    if (names.has(name)) throw new Error(`the config schema declares the definition ${name} twice`);
    names.add(name);
    parts.definitions[name] = definition;
  }
  return topLevelSchema(parts);
}

function sectionsOf(declarations: readonly KindConfigSchema[]): [string, ConfigSection][] {
  return declarations.flatMap((declaration) =>
    Object.entries(declaration.sections).map(([key, section]): [string, ConfigSection] => {
      if (!declaration.kinds.includes(key)) throw new Error(`the config section ${key} is none of its declaration's kinds (${declaration.kinds.join(', ')})`);
      return [key, section];
    }),
  );
}
