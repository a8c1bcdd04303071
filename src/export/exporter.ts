// `steward export` without the command line: which kinds, read them, map them to configuration,
// refer to ids through the environment's variables, and write YAML that plans to no changes.
import type { StepKind } from '../model/plan.js';
import type { PlatformApi } from '../api/platform.js';
import type { VariableValue } from '../config/interpolate.js';
import { closest } from '../config/suggest.js';
import { KINDS, type Kind, type StewardConfig } from '../config/types.js';
import { emailKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { REGISTRY } from '../kinds/registry.js';
import type { ResourceKind } from '../model/kind.js';
import { escapeReferences, referVariables } from './ids.js';
import { inSectionOrder, toConfigSections, type ConfigSections } from './mapping.js';
import { ownersIn, readSnapshot, type LiveSnapshot } from './snapshot.js';
import { configYaml } from './yaml.js';

/** The kinds `steward export` writes when none is named: all of them. */
export const DEFAULT_EXPORT_KINDS: readonly Kind[] = KINDS;

export interface ExportRequest {
  api: PlatformApi;
  kinds: readonly Kind[];
  /** E-mails of other users whose objects (routines) are exported too (with `owner:`). */
  owners: readonly string[];
  /**
   * The configuration beside the environment: the owners it names are exported when the key is
   * tied to no user (so has no routines of its own) and no `owners` are given.
   */
  config?: StewardConfig;
  environment: { name: string; baseUrl: string; variables?: Readonly<Record<string, VariableValue>> };
  /** The `$schema` path written on the first line; none when no schema resolves from the file. */
  schema: string | undefined;
  stewardVersion: string;
  now: Date;
  /** The kinds there are; default: every kind steward has. */
  registry?: ReadonlyMap<StepKind, ResourceKind>;
}

export interface ExportResult {
  yaml: string;
  sections: ConfigSections;
  /** Things the user should know (literal ids); the file is valid regardless. */
  warnings: string[];
}

/**
 * Parses `--kind` values (default: every kind). A kind brings its parts along (`targeting.partOf`),
 * as `--target` does: labels their documents and folders; `documentLabels` (`folderLabels`) alone
 * exports label names with their documents (folders).
 */
export function exportKinds(requested: readonly string[] | undefined, registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): Kind[] {
  if (requested === undefined || requested.length === 0) return [...DEFAULT_EXPORT_KINDS];
  const kinds = new Set<Kind>();
  for (const value of requested) {
    if (!(KINDS as readonly string[]).includes(value)) {
      const suggestion = closest(value, KINDS);
      throw new StewardError('cli.kind', `--kind ${value}: unknown kind`, 'user', {
        hint: `${suggestion === undefined ? '' : `did you mean \`${suggestion}\`? `}kinds: ${KINDS.join(', ')}`,
      });
    }
    kinds.add(value as Kind);
    for (const part of registry.values()) if (part.targeting.partOf === value) kinds.add(part.kind);
  }
  return KINDS.filter((kind) => kinds.has(kind));
}

/** Reads the live state of the kinds and returns YAML that validates and plans to no changes. */
export async function exportLive(request: ExportRequest): Promise<ExportResult> {
  const registry = request.registry ?? REGISTRY;
  const owned = [...registry.values()].filter((kind) => kind.export?.owners !== undefined);
  if (request.owners.length > 0 && !owned.some((kind) => request.kinds.includes(kind.kind))) {
    const nouns = owned.map((kind) => kind.presentation.noun[1]).join(' and ');
    throw new StewardError('cli.owner', `--owner selects whose ${nouns} are exported, but ${nouns} are not among the exported kinds`, 'user', {
      hint: `add ${owned.map((kind) => `--kind ${kind.kind}`).join(' ')}, or leave --owner out`,
    });
  }
  const owners = [...new Set(request.owners.map(emailKey))];
  const configOwners = [...new Set((request.config === undefined ? [] : ownersIn(request.config, registry)).map(emailKey))];
  const snapshot = await readSnapshot(request.api, { kinds: request.kinds, owners, ownersWithoutKeyUser: configOwners, registry });
  const mapped = toConfigSections(snapshot, registry);
  const { sections, warnings: literalIds } = referVariables(escapeReferences(mapped), request.environment, registry);
  const warnings = [...snapshot.warnings, ...literalIds];
  const yaml = configYaml(sections, { schema: request.schema, header: header(request, snapshot, registry) }, registry);
  return { yaml, sections, warnings };
}

/** What the file holds, kind by kind in the order of its sections; a part in the words of the kind it belongs to. */
function holdings(snapshot: LiveSnapshot, registry: ReadonlyMap<StepKind, ResourceKind>): string[] {
  const ordered = inSectionOrder(registry);
  const asked = (kind: ResourceKind) => snapshot.asked.includes(kind.kind);
  return ordered.flatMap((kind) => {
    const read = snapshot.read[kind.kind];
    if (kind.targeting.partOf !== undefined || kind.export === undefined || read === undefined) return [];
    const parts = ordered.filter((part) => part.targeting.partOf === kind.kind && asked(part) && snapshot.read[part.kind] !== undefined);
    if (!asked(kind) && parts.length === 0) return [];
    const words = parts.map((part) => part.export!.holds(snapshot.read[part.kind], { whole: true, parts: [], caller: snapshot.caller }));
    return [kind.export.holds(read, { whole: asked(kind), parts: words, caller: snapshot.caller })];
  });
}

function header(request: ExportRequest, snapshot: LiveSnapshot, registry: ReadonlyMap<StepKind, ResourceKind>): string[] {
  const { name, baseUrl } = request.environment;
  const flags = pruneFlags(registry);
  return [
    `Exported by steward ${request.stewardVersion} from environment ${name} (${baseUrl}) at ${request.now.toISOString()}.`,
    ...wrap(`It holds ${holdings(snapshot, registry).join(', ')}.`, 96),
    '',
    `\`steward plan --env ${name}\` with this file beside the environments shows no changes.`,
    'Nothing is pruned: live objects this file does not list are left alone until you add',
    `\`prune:\`${flags.length === 0 ? '' : ` (and ${flags.join('; ')})`} to make it the whole truth.`,
  ];
}

/** What besides `prune:` makes a file the whole truth, kind by kind in the order of its sections, whatever the file holds; a part's flag in the words of the kind it belongs to. */
function pruneFlags(registry: ReadonlyMap<StepKind, ResourceKind>): string[] {
  const ordered = inSectionOrder(registry);
  return ordered.flatMap((kind) => {
    if (kind.targeting.partOf !== undefined || kind.export?.pruning === undefined) return [];
    const parts = ordered.flatMap((part) => (part.targeting.partOf === kind.kind ? part.export?.pruning?.([]) ?? [] : []));
    return kind.export.pruning(parts) ?? [];
  });
}

/** Splits text into lines of at most `width` characters at spaces (a longer word gets its own line). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return line === '' ? lines : [...lines, line];
}
