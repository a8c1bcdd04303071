// Whose routines an owner-less routine is: the key's own user, which an organization key tied to
// no user does not have (gaps.md). Checked before anything is read.
import type { Whoami } from '../../api/types.js';
import type { LoadedConfig, SourceLocation } from '../../config/types.js';
import { StewardError } from '../../errors.js';
import { keyUser } from '../../resolve/preflight.js';

/**
 * With an organization key tied to no user, nothing is "the key's own routines": every routine
 * needs an `owner:`, and pruning reaches only the owners the config names. Throws one error that
 * lists every routine without an owner at its file:line:col, or says why a prune has no owner.
 */
export function requireRoutineOwners(
  whoami: Whoami,
  loaded: Pick<LoadedConfig, 'config' | 'locate'>,
  /** How the messages name the key: another environment's in a promotion. */
  theKey = 'this organization API key',
): void {
  if (whoami.keyScope !== 'organization' || keyUser(whoami) !== undefined) return;
  const routines = loaded.config.routines ?? [];
  const ownerless = routines.flatMap((routine, index) => (routine.owner === undefined ? [{ name: routine.name, at: loaded.locate(['routines', index]) }] : []));
  if (ownerless.length > 0) {
    const where = (at: SourceLocation | undefined) => (at === undefined ? '' : `${at.file}:${at.line}:${at.col}: `);
    const subject = ownerless.length === 1 ? `routine "${ownerless[0]!.name}" has` : `${ownerless.length} routines have`;
    const list = ownerless.length === 1 ? '' : `:\n${ownerless.map((routine) => `  ${where(routine.at)}routine "${routine.name}"`).join('\n')}`;
    const positions = ownerless.flatMap((routine) => (routine.at === undefined ? [] : [routine.at]));
    throw new StewardError(
      'plan.routine-owner',
      `${subject} no \`owner:\`, and ${theKey} is tied to no user (whoami names none), so steward cannot tell whose ${ownerless.length === 1 ? 'routine it is' : 'they are'}${list}`,
      'user',
      {
        hint: `add \`owner: <e-mail of the user whose routine it is>\` to ${ownerless.length === 1 ? 'it' : 'each'}, or use a personal token of that user`,
        details: { ...(positions[0] === undefined ? {} : { position: positions[0] }), positions, routines: ownerless.map((routine) => routine.name) },
      },
    );
  }
  if (loaded.config.prune?.routines === true && routines.length === 0) {
    const at = loaded.locate(['prune', 'routines']);
    throw new StewardError(
      'plan.routine-owner',
      `\`prune: routines: true\` deletes the undeclared routines of the owners the config names, and it names none; ${theKey} is tied to no user, so it has no routines of its own to prune`,
      'user',
      {
        hint: 'declare the routines to keep, each with `owner: <e-mail>` (their owners\' other routines are pruned), or use a personal token of the user whose routines to prune',
        details: at === undefined ? {} : { position: at, positions: [at] },
      },
    );
  }
}
