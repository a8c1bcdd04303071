// Deletion protection: an environment can protect a whole kind or named objects, and an object
// can protect itself (like Terraform's prevent_destroy). Pruning skips protected objects; a
// change that would destroy a declared protected object is refused at plan time.
import type { ConfigPath, EnvironmentConfig, PrunableKind } from '../config/types.js';
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
export function protectedError(what: string, why: string, options: { hint?: string; details?: Record<string, unknown> } = {}): StewardError {
  return new StewardError('plan.protected', `${what} is protected, but ${why}`, 'user', {
    hint: options.hint ?? 'remove its `protect` flag if this is intended',
    ...(options.details === undefined ? {} : { details: options.details }),
  });
}

/**
 * Where the config resets a protected entry of `section` (its `creditLimit: default`, or its
 * `until` once passed), then the flag that protects it: the places a refused reset points at.
 */
export function resetPaths(section: PrunableKind, index: number, expired: boolean): ConfigPath[] {
  return [[section, index, expired ? 'until' : 'creditLimit'], [section, index, 'protect']];
}

/** Why a step deletes an undeclared object; promotion words it after its source instead. */
export const PRUNED_REASON = 'pruned: not in the config';
/** Why a step takes a label off a document or folder the label does not list; promotion words it after its source. */
export const UNLISTED_DOCUMENT_REASON = 'pruneDocuments: not listed in the label\'s documents';
export const UNLISTED_FOLDER_REASON = 'pruneFolders: not listed in the label\'s folders';
