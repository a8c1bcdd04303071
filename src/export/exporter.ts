// `steward export` without the command line: which kinds, read them, map them to configuration,
// refer to ids through the environment's variables, and write YAML that plans to no changes.
import type { PlatformApi } from '../api/platform.js';
import type { VariableValue } from '../config/interpolate.js';
import { closest } from '../config/suggest.js';
import { KINDS, type Kind } from '../config/types.js';
import { emailKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { referGroupVariables } from './groupIds.js';
import { escapeReferences, referVariables } from './ids.js';
import { toConfigSections, type ConfigSections } from './mapping.js';
import { readSnapshot, type LiveSnapshot } from './snapshot.js';
import { configYaml } from './yaml.js';

/** The kinds `steward export` writes when none is named: all of them. */
export const DEFAULT_EXPORT_KINDS: readonly Kind[] = KINDS;

export interface ExportRequest {
  api: PlatformApi;
  kinds: readonly Kind[];
  /** E-mails of other users whose routines are exported too (with `owner:`). */
  owners: readonly string[];
  /**
   * The routine owners the config names: exported when the key is tied to no user (so has no
   * routines of its own) and no `owners` are given.
   */
  configOwners?: readonly string[];
  environment: { name: string; baseUrl: string; variables?: Readonly<Record<string, VariableValue>> };
  /** The `$schema` path written on the first line; none when no schema resolves from the file. */
  schema: string | undefined;
  stewardVersion: string;
  now: Date;
}

export interface ExportResult {
  yaml: string;
  sections: ConfigSections;
  /** Things the user should know (literal ids); the file is valid regardless. */
  warnings: string[];
}

/**
 * Parses `--kind` values (default: every kind). Labels bring their documents and folders along,
 * as `--target labels` does; `documentLabels` (`folderLabels`) alone exports label names with
 * their documents (folders).
 */
export function exportKinds(requested: readonly string[] | undefined): Kind[] {
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
    if (value === 'labels') {
      kinds.add('documentLabels');
      kinds.add('folderLabels');
    }
  }
  return KINDS.filter((kind) => kinds.has(kind));
}

/** Reads the live state of the kinds and returns YAML that validates and plans to no changes. */
export async function exportLive(request: ExportRequest): Promise<ExportResult> {
  if (request.owners.length > 0 && !request.kinds.includes('routines')) {
    throw new StewardError('cli.owner', '--owner selects whose routines are exported, but routines are not among the exported kinds', 'user', {
      hint: 'add --kind routines, or leave --owner out',
    });
  }
  const owners = [...new Set(request.owners.map(emailKey))];
  const configOwners = [...new Set((request.configOwners ?? []).map(emailKey))];
  const snapshot = await readSnapshot(request.api, { kinds: request.kinds, owners, ownersWithoutKeyUser: configOwners });
  const mapped = toConfigSections(snapshot, { labelFields: request.kinds.includes('labels') });
  const routineIds = referVariables(escapeReferences(mapped), request.environment);
  const groupIds = referGroupVariables(routineIds.sections, request.environment);
  const sections = groupIds.sections;
  const warnings = [...routineIds.warnings, ...groupIds.warnings];
  if (snapshot.routinesNotRead !== undefined) {
    warnings.unshift(`routines are not exported: ${snapshot.routinesNotRead}; name whose routines to export with --owner EMAIL (repeatable)`);
  }
  const yaml = configYaml(sections, { schema: request.schema, header: header(request, snapshot) });
  return { yaml, sections, warnings };
}

/** Whose routines an export holds, as people read it. */
function routineOwnersText(snapshot: LiveSnapshot): string {
  const ownerless = snapshot.routines?.some((owner) => owner.owner === undefined) === true;
  const self = ownerless ? [snapshot.caller?.email ?? 'the API key\'s own user'] : [];
  const named = (snapshot.routines ?? []).flatMap((owner) => (owner.owner === undefined ? [] : [owner.owner]));
  return [...self, ...named.filter((owner) => !self.some((email) => emailKey(email) === owner))].join(', ');
}

function header(request: ExportRequest, snapshot: LiveSnapshot): string[] {
  const { name, baseUrl } = request.environment;
  const parts: string[] = [];
  const kinds = new Set(request.kinds);
  if (kinds.has('creditControls')) parts.push('credit controls');
  if (kinds.has('userCreditLimits')) parts.push('individual user credit limits');
  if (kinds.has('userGroupCreditLimits')) parts.push('user group credit limits');
  if (kinds.has('entityGroupCreditLimits')) parts.push('entity group credit limits');
  if (snapshot.routines !== undefined) parts.push(`the routines of ${routineOwnersText(snapshot)}`);
  const carriers = [kinds.has('documentLabels') ? 'documents' : undefined, kinds.has('folderLabels') ? 'folders' : undefined].filter((carrier) => carrier !== undefined).join(' and ');
  if (kinds.has('labels')) parts.push(carriers === '' ? 'labels' : `labels with the ${carriers} that carry them`);
  else if (carriers !== '') parts.push(`the ${carriers} that carry each label`);
  return [
    `Exported by steward ${request.stewardVersion} from environment ${name} (${baseUrl}) at ${request.now.toISOString()}.`,
    ...wrap(`It holds ${parts.join(', ')}.`, 96),
    '',
    `\`steward plan --env ${name}\` with this file beside the environments shows no changes.`,
    'Nothing is pruned: live objects this file does not list are left alone until you add',
    '`prune:` (and `pruneDocuments: true` or `pruneFolders: true` on labels) to make it the whole truth.',
  ];
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
