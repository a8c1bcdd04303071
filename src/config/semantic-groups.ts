// Semantic checks of the group credit-limit sections: each group or entity declared once, and
// names that can match a live object (a SCIM display name or an entity is matched exactly, so a
// blank or padded name never matches anything).
import { idKey } from '../domain/rules.js';
import { isRecord } from './sources.js';
import type { Findings } from './findings.js';
import type { ConfigPath } from './types.js';

/** Findings of `userGroupCreditLimits` and `entityGroupCreditLimits`. */
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
