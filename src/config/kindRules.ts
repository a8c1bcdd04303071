// What config's analysis reads of the kinds' declarations (kinds/<folder>/configSchema.ts), which
// config/ cannot import: app/config.ts hands them in. Their checks, and what their sections say of
// their entries: the fields each prunable kind's `ignore` may name, who its `protect` names by
// e-mail, which entries take `until:`, how an entry is held once loaded, and the fields whose text
// may span lines. Read off the declarations once per analysis, each in their order.
import type { ConfigSection, KindConfigSchema } from './assembleSchema.js';
import type { ExpiryRules } from './expiry.js';
import type { KindConfigCheck } from './findings.js';
import type { IgnoreRules } from './ignore.js';

export interface KindRules {
  /** Every kind's checks, kind by kind. */
  readonly checks: readonly KindConfigCheck[];
  /** Per prunable section: what its `ignore` lists may name. */
  readonly ignore: ReadonlyMap<string, IgnoreRules>;
  /** Per prunable section whose `protect` lists may name an e-mail: what such a name is (`user`). */
  readonly protectsByEmail: ReadonlyMap<string, string>;
  /** Per section whose entries take `until:`: what expiring does to one. */
  readonly expiry: ReadonlyMap<string, ExpiryRules>;
  /** Per section whose entries are not loaded as written: an entry as it is loaded. */
  readonly normalize: ReadonlyMap<string, (entry: Record<string, unknown>) => Record<string, unknown>>;
  /** The names of the fields whose text may span lines, once each. */
  readonly multiline: readonly string[];
}

/** What the analysis of a configuration reads of these declarations. */
export function kindRules(declarations: readonly KindConfigSchema[]): KindRules {
  const sections = declarations.flatMap((declaration) => Object.entries(declaration.sections));
  const each = <T>(part: (section: ConfigSection) => T | undefined) =>
    new Map(
      sections.flatMap(([key, section]): [string, T][] => {
        const value = part(section);
        return value === undefined ? [] : [[key, value]];
      }),
    );
  return {
    checks: declarations.flatMap((declaration) => declaration.checks),
    ignore: each((section) => section.prunable?.ignoreRules),
    protectsByEmail: each((section) => section.prunable?.protectsByEmail),
    expiry: each((section) => section.expiry),
    normalize: each((section) => section.normalize),
    multiline: [...new Set(sections.flatMap(([, section]) => section.multiline ?? []))],
  };
}
