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

/** A place the configuration names a user by e-mail; a recipient's e-mail is only looked up, never resolved to an id. */
export interface EmailDeclaration {
  path: ConfigPath;
  email: string;
  recipient: boolean;
}

/** Every place the configuration names a user by e-mail: limits, owners, recipients. */
export function emailDeclarations(config: StewardConfig): EmailDeclaration[] {
  const found: EmailDeclaration[] = [];
  (config.userCreditLimits ?? []).forEach((entry, index) => {
    if (entry.email !== undefined) found.push({ path: ['userCreditLimits', index, 'email'], email: entry.email, recipient: false });
  });
  (config.routines ?? []).forEach((routine, index) => {
    if (routine.owner !== undefined) found.push({ path: ['routines', index, 'owner'], email: routine.owner, recipient: false });
    const destination = routine.destination;
    if (destination.type === 'email') {
      (destination.recipientEmails ?? []).forEach((email, position) => found.push({ path: ['routines', index, 'destination', 'recipientEmails', position], email, recipient: true }));
    }
  });
  return found;
}

/**
 * The same error, pointing at the declarations it is about: for `plan.unknown-user` and
 * `plan.ambiguous-user`, the e-mails and ids it names (`details.unknownEmails`,
 * `details.unknownIds`, `details.ambiguousEmails`); for an error with `details.configPath` or
 * `details.configPaths`, those paths. An error that has its positions already, or that names no
 * declaration, is returned unchanged.
 */
export function locateDeclared(error: unknown, loaded: Located, users?: ResolvedUsers): unknown {
  if (!(error instanceof StewardError) || error.details?.position !== undefined) return error;
  const paths: ConfigPath[] = [];
  if (Array.isArray(error.details?.configPath)) paths.push(error.details.configPath as ConfigPath);
  if (Array.isArray(error.details?.configPaths)) paths.push(...(error.details.configPaths as ConfigPath[]));
  // The e-mails and ids the instance does not know, or knows twice.
  const unknownEmails = new Set(textList(error.details?.unknownEmails));
  const ambiguousEmails = new Set(textList(error.details?.ambiguousEmails));
  if (unknownEmails.size > 0 || ambiguousEmails.size > 0) {
    const named = emailDeclarations(loaded.config).filter(({ email }) => {
      const key = emailKey(email);
      return ambiguousEmails.has(key) || (unknownEmails.has(key) && (users === undefined || !knows(users, email)));
    });
    paths.push(...named.map(({ path }) => path));
  }
  const ids = new Set(textList(error.details?.unknownIds));
  if (ids.size > 0) {
    (loaded.config.userCreditLimits ?? []).forEach((entry, index) => {
      if (entry.userId !== undefined && ids.has(entry.userId) && users?.emailOf(entry.userId) === undefined) paths.push(['userCreditLimits', index, 'userId']);
    });
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
