// Routine checks about names that refer to other things: the model and branch a routine names
// (`model:` / `modelId:`, `branch:` / `branchId:`, one of each pair), and former names
// (`renamedFrom:`), which, as for labels, must address one live routine of the same owner
// unambiguously: not a routine the config declares, not the routine itself, not claimed twice.
import { emailKey } from '../domain/rules.js';
import type { Findings } from './findings.js';
import { isRecord } from './sources.js';
import type { ConfigPath } from './types.js';

/** Model and branch references, then renames, of every routine. */
export function checkRoutineReferences(section: unknown, findings: Findings): void {
  if (!Array.isArray(section)) return;
  section.forEach((routine, index) => {
    if (!isRecord(routine)) return;
    const path: ConfigPath = ['routines', index];
    const model = findings.text(routine, 'model', path);
    if (model !== undefined) checkReferenceName(findings, [...path, 'model'], model, 'model name');
    const branch = findings.text(routine, 'branch', path);
    if (branch !== undefined) checkReferenceName(findings, [...path, 'branch'], branch, 'branch name');
    if (routine.branch !== undefined && routine.branchId !== undefined) {
      findings.add('routine.branch', [...path, 'branch'], 'a routine names its branch by one of `branch` (a name) and `branchId`, not both', {
        hint: 'keep `branch:`: names are the same in every deployment',
        target: 'key',
      });
    }
  });
  checkRoutineRenames(section, findings);
}

function checkReferenceName(findings: Findings, path: ConfigPath, value: string, what: string): void {
  if (value.trim() === '') findings.add('routine.blank', path, `${what} is blank`, { hint: 'write the name as the app shows it' });
  else if (value.trim() !== value) findings.add('routine.padded', path, `${what} ${JSON.stringify(value)} has spaces before or after it`, { hint: `write ${JSON.stringify(value.trim())}` });
}

/** Whose routine: an owner's e-mail (compared case-insensitively), or '' for the API key's own user. */
function ownerOf(routine: Record<string, unknown>): string {
  return typeof routine.owner === 'string' ? emailKey(routine.owner) : '';
}

function checkRoutineRenames(section: unknown[], findings: Findings): void {
  const declared = new Map<string, ConfigPath>();
  section.forEach((routine, index) => {
    if (isRecord(routine) && typeof routine.name === 'string') declared.set(`${ownerOf(routine)}\n${routine.name}`, ['routines', index, 'name']);
  });
  const claimed = new Map<string, { newName: string; path: ConfigPath }>();
  section.forEach((routine, index) => {
    if (!isRecord(routine) || typeof routine.name !== 'string' || !Array.isArray(routine.renamedFrom)) return;
    const name = routine.name;
    const owner = ownerOf(routine);
    routine.renamedFrom.forEach((oldName, position) => {
      if (typeof oldName !== 'string') return;
      const path: ConfigPath = ['routines', index, 'renamedFrom', position];
      if (oldName.trim() === '' || oldName.trim() !== oldName) {
        findings.add('routine.renamedFrom', path, `former name ${JSON.stringify(oldName)} is ${oldName.trim() === '' ? 'blank' : 'padded with spaces'}`, { hint: 'write the live routine\'s name exactly' });
        return;
      }
      if (oldName === name) {
        findings.add('routine.renameSelf', path, `routine \`${name}\` lists its own name in \`renamedFrom\``, { hint: 'renamedFrom lists former names only' });
        return;
      }
      const other = declared.get(`${owner}\n${oldName}`);
      if (other !== undefined) {
        findings.add('routine.renameCollision', path, `routine \`${name}\` is renamed from \`${oldName}\`, which is also declared at ${findings.context.describe(other)}`, {
          hint: 'a routine cannot be both renamed and kept: remove one of the two',
        });
        return;
      }
      const key = `${owner}\n${oldName}`;
      const first = claimed.get(key);
      if (first !== undefined) {
        findings.add('routine.renameAmbiguous', path, `\`${oldName}\` is renamed to both \`${first.newName}\` (at ${findings.context.describe(first.path)}) and \`${name}\``, {
          hint: 'a routine can be renamed to one new name only',
        });
        return;
      }
      claimed.set(key, { newName: name, path });
    });
  });
}
