// The credit limits' checks of what the schema cannot say: each user, group or entity declared
// once (e-mails and ids compared case-insensitively), e-mails the platform accepts, user and group
// ids that can travel in a request, and names that can match a live object (a SCIM display name or
// an entity is matched exactly, so a blank or padded name never matches anything). Declared with
// the sections' schema (configSchema.ts); every load runs them (config/semantic.ts).
import { checkEmail, type Findings } from '../../config/findings.js';
import { isRecord } from '../../config/sources.js';
import type { ConfigPath } from '../../config/types.js';
import { emailKey, emailProblem, idKey, UUID_PATTERN } from '../../domain/rules.js';

/**
 * Each user's limit: a valid e-mail or a user id, and one entry per user, e-mails and ids compared
 * case-insensitively (both duplicates are reported: either may be the one to remove).
 */
export function checkUserCreditLimits(config: Record<string, unknown>, findings: Findings): void {
  const section = config.userCreditLimits;
  if (!Array.isArray(section)) return;
  // The first entry of each user, by index: a path is built only for what is reported.
  const seen = new Map<string, number>();
  section.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const path: ConfigPath = ['userCreditLimits', index];
    const email = findings.text(entry, 'email', path);
    const userId = findings.text(entry, 'userId', path);
    if (email !== undefined && emailProblem(email) !== undefined) checkEmail(findings, [...path, 'email'], email, 'user');
    if (userId !== undefined) checkUserId(findings, [...path, 'userId'], userId);
    const key = email !== undefined ? `email:${emailKey(email)}` : userId !== undefined ? `id:${idKey(userId)}` : undefined;
    if (key === undefined) return;
    const firstIndex = seen.get(key);
    if (firstIndex === undefined) {
      seen.set(key, index);
      return;
    }
    const field = email !== undefined ? 'email' : 'userId';
    const written = (email ?? userId)!;
    const firstWritten = (section[firstIndex] as Record<string, unknown>)[field] as string;
    const firstPath: ConfigPath = ['userCreditLimits', firstIndex, field];
    const caseNote = firstWritten !== written ? ` (${field === 'email' ? 'e-mails' : 'user ids'} compare case-insensitively)` : '';
    findings.add(
      'userCreditLimit.duplicate',
      [...path, field],
      `user \`${written}\` is declared twice${caseNote}; the first declaration is at ${findings.context.describe(firstPath)}`,
      { hint: 'keep one entry per user' },
    );
    // Both places are errors: either entry may be the one to remove.
    findings.add(
      'userCreditLimit.duplicate',
      firstPath,
      `user \`${firstWritten}\` is declared again at ${findings.context.describe([...path, field])}${caseNote}`,
      { hint: 'keep one entry per user' },
    );
  });
}

/** User ids travel in query strings and SCIM filters: one word of letters, digits, `-`, `_` or `.`. */
function checkUserId(findings: Findings, path: ConfigPath, userId: string): void {
  if (UUID_PATTERN.test(userId) || /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(userId)) return;
  findings.add('userCreditLimit.userId', path, `\`userId\` ${JSON.stringify(userId)} is not a user id`, {
    hint: /@/.test(userId) ? 'name the user by `email:` instead' : 'user ids are uuids (or one word of letters, digits, `-`, `_` and `.`); e-mails are the same in every deployment: prefer `email:`',
  });
}

/** Each group's and entity's limit: named by a name that can match, or a group id, and declared once. */
export function checkGroupCreditLimits(config: Record<string, unknown>, findings: Findings): void {
  checkSection(config.userGroupCreditLimits, 'userGroupCreditLimits', findings, [
    { field: 'group', key: (name) => `group:${name}`, noun: 'user group' },
    { field: 'userGroupId', key: (id) => `id:${idKey(id)}`, noun: 'user group id' },
  ]);
  checkSection(config.entityGroupCreditLimits, 'entityGroupCreditLimits', findings, [{ field: 'entity', key: (name) => `entity:${name}`, noun: 'entity' }]);
}

interface Identity {
  field: string;
  /** The key two entries share when they name one object. */
  key: (written: string) => string;
  noun: string;
}

function checkSection(section: unknown, name: string, findings: Findings, identities: readonly Identity[]): void {
  if (!Array.isArray(section)) return;
  const seen = new Map<string, ConfigPath>();
  section.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const path: ConfigPath = [name, index];
    for (const identity of identities) {
      const written = findings.text(entry, identity.field, path);
      if (written === undefined) continue;
      const at: ConfigPath = [...path, identity.field];
      if (written.trim() === '') {
        findings.add(`${name}.blank`, at, `${identity.noun} is blank`, { hint: 'write the name, or remove the entry' });
        continue;
      }
      if (written.trim() !== written) {
        findings.add(`${name}.padded`, at, `${identity.noun} ${JSON.stringify(written)} has spaces before or after it`, {
          hint: `names are matched exactly: write ${JSON.stringify(written.trim())}`,
        });
        continue;
      }
      // Ids travel in request bodies and SCIM paths: one word (a SCIM id or a uuid, gaps.md).
      if (identity.field === 'userGroupId' && !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(written)) {
        findings.add(`${name}.id`, at, `\`userGroupId\` ${JSON.stringify(written)} is not a user group id`, {
          hint: 'a group id is one word of letters, digits, `-` and `_`; name the group by `group:` (its display name) instead',
        });
        continue;
      }
      const key = identity.key(written);
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, at);
        continue;
      }
      const hint = `keep one entry per ${identity.noun === 'entity' ? 'entity' : 'group'}: it has one credit limit`;
      findings.add(`${name}.duplicate`, at, `${identity.noun} \`${written}\` is declared twice; the first declaration is at ${findings.context.describe(first)}`, { hint });
      // Both places are errors: either entry may be the one to remove.
      findings.add(`${name}.duplicate`, first, `${identity.noun} \`${written}\` is declared again at ${findings.context.describe(at)}`, { hint });
    }
  });
}
