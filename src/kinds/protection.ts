// Deletion protection: an environment can protect a whole kind or named objects, and an object
// can protect itself (like Terraform's prevent_destroy). Pruning skips protected objects; a
// change that would destroy a declared protected object is refused at plan time.
import type { EnvironmentConfig, PrunableKind } from '../config/types.js';
import { StewardError } from '../errors.js';

/** Whether the environment protects this object (names compared case-insensitively). */
export function protectedInEnvironment(
  environment: EnvironmentConfig,
  kind: PrunableKind,
  names: readonly (string | undefined)[],
): boolean {
  const rule = environment.protect?.[kind];
  if (rule === undefined) return false;
  if (rule === true) return true;
  const wanted = new Set(rule.map((name) => name.toLowerCase()));
  return names.some((name) => name !== undefined && wanted.has(name.toLowerCase()));
}

/** The error for a plan that would destroy a protected object. */
export function protectedError(what: string, why: string): StewardError {
  return new StewardError('plan.protected', `${what} is protected, but ${why}`, 'user', {
    hint: 'remove its `protect` flag (or the environment protection) if this is intended',
  });
}

/** Why a step deletes an undeclared object; promotion words it after its source instead. */
export const PRUNED_REASON = 'pruned: not in the config';
