// Checks the JSON Schema cannot express, run on the merged configuration after interpolation:
// schedules and timezones, credit thresholds, duplicates, label and e-mail rules, Slack ids,
// renames. Written defensively: a value of the wrong type was already reported by the schema.
import {
  LABEL_COLOR_PATTERN,
  LABEL_DESCRIPTION_MAX,
  LABEL_NAME_MAX,
  LABEL_NAME_MIN,
  characterCount,
  documentIdentifierProblem,
  labelKey,
  labelNameProblem,
} from '../domain/rules.js';
import { codePoint, forbiddenCharacterName, holdsNotableCharacter } from './bytes.js';
import { formatPath } from './positions.js';
import { checkEnvironmentSettings } from './semantic-environments.js';
import { checkIgnore } from './ignore.js';
import { checkExpiry } from './expiry.js';
import { isRecord } from './sources.js';
import { Findings, type DeclaredLabels, type KindConfigCheck, type SemanticContext } from './findings.js';
import type { ConfigPath, Diagnostic } from './types.js';

/**
 * Every semantic finding of a merged, interpolated configuration: its characters first (a value
 * they report is not reported again), then the kinds' checks, given in order, then the rest.
 */
export function checkSemantics(config: Record<string, unknown>, kindChecks: readonly KindConfigCheck[], context: SemanticContext): Diagnostic[] {
  const findings = new Findings(context);
  if (context.verbatimText !== true) checkCharacters(config, [], findings);
  for (const check of kindChecks) check(config, findings);
  const labels = checkLabels(config.labels, findings);
  checkEnvironmentSettings(config, labels, findings);
  checkIgnore(config, findings);
  checkExpiry(config, findings, context.now ?? new Date());
  return findings.diagnostics;
}

// Fields whose text may span lines or be indented: everything else is one line.
const MULTILINE_FIELDS = new Set(['prompt', 'description']);

/**
 * Control and invisible characters in any text value, after interpolation: YAML escapes (`"\e"`)
 * and environment variables can bring what the file's bytes did not. Tabs and line breaks are
 * allowed in prompts and descriptions only.
 */
function checkCharacters(value: unknown, path: ConfigPath, findings: Findings): void {
  if (typeof value === 'string') {
    if (!holdsNotableCharacter(value) || findings.context.skip(path)) return;
    const multiline = MULTILINE_FIELDS.has(String(path.at(-1)));
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      const allowed = multiline ? code === 0x09 || code === 0x0a : false;
      if (allowed) continue;
      const name = code === 0x09 ? `tab (${codePoint(code)})` : code === 0x0a ? `line break (${codePoint(code)})` : code === 0x0d ? `carriage return (${codePoint(code)})` : forbiddenCharacterName(code);
      if (name === undefined) continue;
      findings.add('text.controlCharacter', path, `\`${formatPath(path)}\` holds ${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`, {
        hint: multiline ? 'prompts and descriptions may hold tabs and line breaks, nothing else invisible' : 'write it on one line, with printable characters only',
      });
      findings.taint(path);
      return;
    }
    return;
  }
  // A child's path is built only for what may hold a finding: most values are plain text or numbers.
  const visit = (child: unknown, step: string | number) => {
    if (typeof child === 'string' ? holdsNotableCharacter(child) : typeof child === 'object' && child !== null) checkCharacters(child, [...path, step], findings);
  };
  if (Array.isArray(value)) value.forEach((item, index) => visit(item, index));
  else if (isRecord(value)) for (const [key, child] of Object.entries(value)) visit(child, key);
}

/** Declared label names and renamed-from names (by labelKey), for the checks that refer to labels. */

function checkLabels(section: unknown, findings: Findings): DeclaredLabels {
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
