// The labels' checks of what the schema cannot say: names (case-insensitively unique, within
// the length), colours, descriptions, the documents and folders that carry a label, former names
// that must address one live label unambiguously, and the labels an environment protects, which
// must be declared (or labels pruned) and not renamed away. Declared with the section's schema
// (configSchema.ts); every load runs them (config/semantic.ts).
import type { Findings } from '../../config/findings.js';
import { isRecord } from '../../config/sources.js';
import { didYouMean } from '../../config/suggest.js';
import type { ConfigPath } from '../../config/types.js';
import {
  LABEL_COLOR_PATTERN,
  LABEL_DESCRIPTION_MAX,
  LABEL_NAME_MAX,
  LABEL_NAME_MIN,
  characterCount,
  documentIdentifierProblem,
  labelKey,
  labelNameProblem,
} from '../../domain/rules.js';

/** The labels a configuration declares and renames, by key: what the checks of protect lists need of them. */
interface DeclaredLabels {
  declared: Map<string, { name: string; path: ConfigPath }>;
  renamed: Map<string, { newName: string; path: ConfigPath }>;
}

/** Every label's findings, then those of the labels each environment protects. */
export function checkLabels(config: Record<string, unknown>, findings: Findings): void {
  checkProtectedLabels(config, checkLabelEntries(config.labels, findings), findings);
}

/** Each label's fields, then the former names, which are checked once every label is known. */
function checkLabelEntries(section: unknown, findings: Findings): DeclaredLabels {
  const labels: DeclaredLabels = { declared: new Map(), renamed: new Map() };
  if (!Array.isArray(section)) return labels;
  section.forEach((label, index) => {
    if (!isRecord(label)) return;
    const path: ConfigPath = ['labels', index];
    const name = findings.text(label, 'name', path);
    if (name === undefined) return;
    const nameProblem = labelNameProblem(name);
    if (nameProblem !== undefined) {
      findings.add('label.name', [...path, 'name'], `label name ${JSON.stringify(name)} cannot be used: ${nameProblem}`, {
        hint: name.trim() !== name && name.trim() !== '' ? `write ${JSON.stringify(name.trim())}` : 'label names are 2 to 25 characters without `/`, `\\` or `,`',
      });
    }
    const first = labels.declared.get(labelKey(name));
    if (first !== undefined) {
      const caseNote = first.name !== name ? ' (label names compare case-insensitively)' : '';
      findings.add('label.duplicate', [...path, 'name'], `label \`${name}\` is declared twice${caseNote}; the first declaration is at ${findings.context.describe(first.path)}`, {
        hint: 'keep one entry per label',
      });
    } else labels.declared.set(labelKey(name), { name, path: [...path, 'name'] });
    const nameLength = characterCount(name);
    if (nameProblem === undefined && (nameLength < LABEL_NAME_MIN || nameLength > LABEL_NAME_MAX)) {
      findings.add('label.name', [...path, 'name'], `label name \`${name}\` is ${nameLength} character${nameLength === 1 ? '' : 's'} long; names are ${LABEL_NAME_MIN} to ${LABEL_NAME_MAX} characters`);
    }
    const color = findings.text(label, 'color', path);
    if (color !== undefined && !LABEL_COLOR_PATTERN.test(color)) {
      findings.add('label.color', [...path, 'color'], `\`${color}\` is not a hex colour`, { hint: 'write `#rgb`, `#rrggbb` or `#rrggbbaa` in quotes, e.g. `"#0366d6"`' });
    }
    const description = findings.text(label, 'description', path);
    if (description !== undefined && characterCount(description) > LABEL_DESCRIPTION_MAX) {
      findings.add('label.description', [...path, 'description'], `label description is ${characterCount(description)} characters long; the limit is ${LABEL_DESCRIPTION_MAX}`);
    }
    if (label.pruneDocuments === true && label.documents === undefined) {
      findings.add('label.pruneDocuments', [...path, 'pruneDocuments'], `label \`${name}\` sets \`pruneDocuments\` without \`documents\``, {
        hint: 'list the documents that keep the label, or `documents: []` to take it off every document',
      });
    }
    if (Array.isArray(label.documents)) {
      const seen = new Set<string>();
      label.documents.forEach((identifier, position) => {
        if (typeof identifier !== 'string' || findings.context.skip([...path, 'documents', position])) return;
        const problem = documentIdentifierProblem(identifier);
        if (problem !== undefined) {
          findings.add('label.document', [...path, 'documents', position], `document identifier ${JSON.stringify(identifier)} cannot be used: ${problem}`, {
            hint: 'copy the identifier from the document\'s URL',
          });
          return;
        }
        if (seen.has(identifier)) {
          findings.add('label.documentDuplicate', [...path, 'documents', position], `document \`${identifier}\` is listed twice for label \`${name}\``);
        }
        seen.add(identifier);
      });
    }
    if (label.pruneFolders === true && label.folders === undefined) {
      findings.add('label.pruneFolders', [...path, 'pruneFolders'], `label \`${name}\` sets \`pruneFolders\` without \`folders\``, {
        hint: 'list the folders that keep the label, or `folders: []` to take it off every folder',
      });
    }
    if (Array.isArray(label.folders)) {
      const seen = new Set<string>();
      label.folders.forEach((folder, position) => {
        if (typeof folder !== 'string' || findings.context.skip([...path, 'folders', position])) return;
        if (folder.trim() !== folder) {
          findings.add('label.folder', [...path, 'folders', position], `folder ${JSON.stringify(folder)} has spaces before or after it`, { hint: 'write the folder\'s path (or id) exactly' });
          return;
        }
        if (seen.has(folder)) findings.add('label.folderDuplicate', [...path, 'folders', position], `folder \`${folder}\` is listed twice for label \`${name}\``);
        seen.add(folder);
      });
    }
  });
  // Renames are checked once every label is known, so order in the files does not matter.
  section.forEach((label, index) => {
    if (!isRecord(label) || typeof label.name !== 'string' || !Array.isArray(label.renamedFrom)) return;
    const name = label.name;
    label.renamedFrom.forEach((oldName, position) => {
      if (typeof oldName !== 'string') return;
      const path: ConfigPath = ['labels', index, 'renamedFrom', position];
      // A former name must address the live label: any name the API can put in a path will do.
      if (oldName.trim() !== oldName || oldName === '.' || oldName === '..' || oldName.includes('/')) {
        findings.add('label.renamedFrom', path, `former name ${JSON.stringify(oldName)} cannot be used: ${labelNameProblem(oldName) ?? 'it cannot be used in a request path'}`, {
          hint: 'write the live label\'s name exactly',
        });
        return;
      }
      if (oldName === name) {
        findings.add('label.renameSelf', path, `label \`${name}\` lists its own name in \`renamedFrom\``, { hint: 'renamedFrom lists former names only' });
        return;
      }
      const declared = labels.declared.get(labelKey(oldName));
      if (declared !== undefined && labelKey(oldName) !== labelKey(name)) {
        findings.add('label.renameCollision', path, `label \`${name}\` is renamed from \`${oldName}\`, which is also declared at ${findings.context.describe(declared.path)}`, {
          hint: 'a label cannot be both renamed and kept: remove one of the two',
        });
        return;
      }
      const claimed = labels.renamed.get(labelKey(oldName));
      if (claimed !== undefined) {
        findings.add('label.renameAmbiguous', path, `\`${oldName}\` is renamed to both \`${claimed.newName}\` (at ${findings.context.describe(claimed.path)}) and \`${name}\``, {
          hint: 'a label can be renamed to one new name only',
        });
        return;
      }
      labels.renamed.set(labelKey(oldName), { newName: name, path });
    });
  });
  return labels;
}

/** Labels an environment protects that the configuration renames away, or that protection cannot affect. */
function checkProtectedLabels(config: Record<string, unknown>, labels: DeclaredLabels, findings: Findings): void {
  if (!isRecord(config.environments)) return;
  const labelsPruned = isRecord(config.prune) && config.prune.labels === true;
  for (const [name, environment] of Object.entries(config.environments)) {
    const protectedLabels = isRecord(environment) && isRecord(environment.protect) ? environment.protect.labels : undefined;
    if (!Array.isArray(protectedLabels)) continue;
    protectedLabels.forEach((label, index) => {
      if (typeof label !== 'string') return;
      const itemPath: ConfigPath = ['environments', name, 'protect', 'labels', index];
      const key = labelKey(label);
      if (labels.declared.has(key)) return;
      const renamed = labels.renamed.get(key);
      if (renamed !== undefined) {
        findings.add('protect.renamedLabel', itemPath, `environment \`${name}\` protects label \`${label}\`, which this configuration renames to \`${renamed.newName}\``, {
          severity: 'warning',
          hint: `protect \`${renamed.newName}\` instead`,
        });
        return;
      }
      if (labelsPruned) return; // protecting an undeclared label from pruning is the point
      findings.add('protect.undeclaredLabel', itemPath, `environment \`${name}\` protects label \`${label}\`, which is neither declared nor renamed, and labels are not pruned`, {
        severity: 'warning',
        namesMissing: true,
        hint: didYouMean(label, [...labels.declared.values()].map((declared) => declared.name)) ?? 'protection only matters for undeclared labels when `prune.labels` is true',
      });
    });
  }
}
