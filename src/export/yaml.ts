// Configuration sections → the YAML a person would write: the schema line first, a comment
// saying what the file holds, `version: 1`, one blank line between sections, the fields each kind
// names quoted or short lists of them inline (as the examples write them: KindExport.styles), what
// a default gives left out (each kind says what: KindExport.written), and long text never folded.
import type { StepKind } from '../model/plan.js';
import { Document, isNode, isScalar, isSeq, Scalar, visit, type Node } from 'yaml';
import type { Kind } from '../config/types.js';
import { REGISTRY } from '../kinds/registry.js';
import type { KindFieldStyles, ResourceKind } from '../model/kind.js';
import { holdsInvisible, inertYaml } from '../render/inert.js';
import { sectionOf, type ConfigSections } from './mapping.js';

/** Lists up to this long are written inline (`[a, b]`); longer ones one item per line, for reviewable diffs. */
export const INLINE_LIST_MAX = 5;

/** The YAML text of `sections`: `header` lines become comments after the schema line. Pure. */
export function configYaml(sections: ConfigSections, options: { schema: string | undefined; header: readonly string[] }, registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): string {
  const document = new Document({ version: 1, ...written(sections, registry) });
  visit(document, {
    Scalar(_, scalar) {
      // Live text may hold characters a terminal would act on: written as escapes (below).
      if (typeof scalar.value === 'string' && holdsInvisible(scalar.value)) scalar.type = Scalar.QUOTE_DOUBLE;
    },
  });
  for (const kind of registry.values()) {
    const section = document.get(sectionOf(kind), true);
    if (kind.export?.styles !== undefined && isNode(section)) styleFields(section, kind.export.styles);
  }
  const contents = document.contents;
  if (contents !== null && 'items' in contents) {
    for (const pair of (contents.items as { key: unknown }[]).slice(1)) {
      if (isScalar(pair.key)) pair.key.spaceBefore = true;
    }
  }
  const modeline = options.schema === undefined ? [] : [`# yaml-language-server: $schema=${options.schema}`, '#'];
  const comments = [...modeline, ...options.header.map((line) => (line === '' ? '#' : `# ${line}`))];
  return inertYaml(`${comments.join('\n')}\n${document.toString({ lineWidth: 0, flowCollectionPadding: false })}`);
}

/** Quotes the text of the `quoted` fields in a section (a list's items), and writes short `inline` lists on one line. */
function styleFields(section: Node, styles: KindFieldStyles): void {
  const quoted = new Set(styles.quoted ?? []);
  const inline = new Set(styles.inline ?? []);
  visit(section, {
    Pair(_, pair) {
      if (!isScalar(pair.key)) return;
      const key = String(pair.key.value);
      if (quoted.has(key) && isScalar(pair.value) && typeof pair.value.value === 'string') pair.value.type = Scalar.QUOTE_DOUBLE;
      if (quoted.has(key) && isSeq(pair.value)) for (const item of pair.value.items) if (isScalar(item)) item.type = Scalar.QUOTE_DOUBLE;
      if (inline.has(key) && isSeq(pair.value)) pair.value.flow = pair.value.items.length <= INLINE_LIST_MAX;
    },
  });
}

/** Each section as a file writes it, where its kind leaves out what a default gives. */
function written(sections: ConfigSections, registry: ReadonlyMap<StepKind, ResourceKind>): ConfigSections {
  const result: Record<string, unknown> = { ...sections };
  for (const kind of registry.values()) {
    const name = sectionOf(kind);
    if (kind.export?.written !== undefined && result[name] !== undefined) result[name] = kind.export.written(result[name]);
  }
  return result as ConfigSections;
}
