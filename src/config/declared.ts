// Errors found while planning that concern something the configuration declares (an e-mail the
// instance does not know, a user id, a model, one user named twice) point at the config: the
// error gets `details.position` (the first place, which the CLI prints as `file:line:col: `),
// `details.positions` (every place) and, when there are several, one line per place.
import { emailKey, idKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import type { ConfigPath, LoadedConfig, SourceLocation, StewardConfig } from './types.js';

/** What the checks need of the directory of users: which e-mails and ids it resolved. */
export interface ResolvedUsers {
  idOf(email: string): string;
  emailOf(id: string): string | undefined;
}

type Located = Pick<LoadedConfig, 'config' | 'locate'>;

/** Every place the configuration names a user by e-mail: limits, owners, recipients. */
export function emailDeclarations(config: StewardConfig): { path: ConfigPath; email: string }[] {
  const found: { path: ConfigPath; email: string }[] = [];
  (config.userCreditLimits ?? []).forEach((entry, index) => {
    if (entry.email !== undefined) found.push({ path: ['userCreditLimits', index, 'email'], email: entry.email });
  });
  (config.routines ?? []).forEach((routine, index) => {
    if (routine.owner !== undefined) found.push({ path: ['routines', index, 'owner'], email: routine.owner });
    const destination = routine.destination;
    if (destination.type === 'email') {
      (destination.recipientEmails ?? []).forEach((email, position) => found.push({ path: ['routines', index, 'destination', 'recipientEmails', position], email }));
    }
  });
  return found;
}

/**
 * The same error, pointing at the declarations it is about: for `plan.unknown-user`, the
 * e-mails and ids the directory could not resolve; for `preflight.model`, the routines' model
 * ids; for an error with `details.configPath`, that path. Any other error is returned unchanged.
 */
export function locateDeclared(error: unknown, loaded: Located, users?: ResolvedUsers): unknown {
  if (!(error instanceof StewardError)) return error;
  let paths: ConfigPath[] = [];
  if (error.code === 'plan.unknown-user' && users !== undefined) {
    // The error names the e-mails and ids the instance does not know.
    const emails = new Set(textList(error.details?.unknownEmails));
    const ids = new Set(textList(error.details?.unknownIds));
    const unknownEmails = emailDeclarations(loaded.config).filter(({ email }) => !knows(users, email) && emails.has(emailKey(email)));
    const unknownIds = (loaded.config.userCreditLimits ?? []).flatMap((entry, index) =>
      entry.userId !== undefined && users.emailOf(entry.userId) === undefined && ids.has(entry.userId) ? [['userCreditLimits', index, 'userId'] as ConfigPath] : [],
    );
    paths = [...unknownEmails.map(({ path }) => path), ...unknownIds];
  } else if (error.code === 'preflight.model') {
    paths = (loaded.config.routines ?? []).map((_, index) => ['routines', index, 'modelId']);
  } else if (Array.isArray(error.details?.configPath)) {
    // An error that names the declaration it is about as a field.
    paths = [error.details.configPath as ConfigPath];
  } else if (error.code === 'plan.ambiguous-routine') {
    // Where to add `duplicates: delete-identical`, the way out the hint names.
    const name = error.details?.routine;
    paths = (loaded.config.routines ?? []).flatMap((routine, index) => (routine.name === name ? [['routines', index] as ConfigPath] : []));
  }
  return atPositions(error, loaded, paths);
}

/**
 * One user named twice in forms the configuration alone cannot compare (an e-mail and the id it
 * resolves to) would make every credit-limit write fail with `duplicate userId`: refused here,
 * naming both places.
 */
export function requireDistinctUsers(loaded: Located, users: ResolvedUsers): void {
  const entries = loaded.config.userCreditLimits ?? [];
  // The first entry of each user, by index: paths are built only for the error.
  const seen = new Map<string, number>();
  const pathOf = (index: number): ConfigPath => ['userCreditLimits', index, entries[index]!.email !== undefined ? 'email' : 'userId'];
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index]!;
    const written = entry.email ?? entry.userId;
    if (written === undefined) continue;
    let id: string;
    try {
      id = idKey(entry.email !== undefined ? users.idOf(entry.email) : entry.userId!);
    } catch {
      continue; // unresolved: reported as an unknown user
    }
    const firstIndex = seen.get(id);
    if (firstIndex === undefined) {
      seen.set(id, index);
      continue;
    }
    const first = entries[firstIndex]!;
    const firstWritten = (first.email ?? first.userId)!;
    const at = loaded.locate(pathOf(firstIndex));
    const error = new StewardError(
      'plan.duplicate-user',
      `\`${written}\` and \`${firstWritten}\`${at === undefined ? '' : ` (at ${at.file}:${at.line}:${at.col})`} are the same user of this instance; a user has one credit limit`,
      'user',
      { hint: 'keep one entry for the user, preferably by e-mail' },
    );
    throw atPositions(error, loaded, [pathOf(index), pathOf(firstIndex)]);
  }
}

function textList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function knows(users: ResolvedUsers, email: string): boolean {
  try {
    users.idOf(email);
    return true;
  } catch {
    return false;
  }
}

/** `error` with the positions of `paths` in its details (and listed in the message when several). */
function atPositions(error: StewardError, loaded: Located, paths: readonly ConfigPath[]): StewardError {
  const positions = dedupe(paths.flatMap((path) => {
    const at = loaded.locate(path);
    return at === undefined ? [] : [at];
  }));
  if (positions.length === 0) return error;
  const list = positions.length === 1 ? '' : `\n${positions.map((at) => `  ${at.file}:${at.line}:${at.col}`).join('\n')}`;
  return new StewardError(error.code, `${error.message}${list}`, error.fault, {
    cause: error.cause,
    ...(error.hint === undefined ? {} : { hint: error.hint }),
    details: { ...error.details, position: positions[0], positions },
  });
}

function dedupe(positions: SourceLocation[]): SourceLocation[] {
  const seen = new Set<string>();
  return positions.filter((at) => {
    const key = `${at.file}:${at.line}:${at.col}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
