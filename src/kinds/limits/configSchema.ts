// The `userCreditLimits:`, `userGroupCreditLimits:` and `entityGroupCreditLimits:` sections of a
// configuration file: these kinds' part of the config schema, what their `ignore` may name and
// what expiring does to an entry, the identities lower-cased on load, and their checks of what the
// schema cannot say (configChecks.ts). The three entries share their value, expiry, ignore and
// protect fields, and differ in what names the limit's subject. config/assembleSchema.ts puts them
// together with the other kinds' (kinds/configRegistry.ts lists them); `npm run generate` writes
// schemas/steward.schema.json and the config's types from it.
import type { KindConfigSchema } from '../../config/assembleSchema.js';
import type { ExpiryRules } from '../../config/expiry.js';
import { STEWARD_SETTING, type IgnoreRules } from '../../config/ignore.js';
import type { SchemaNode } from '../../config/schemaParts.js';
import { emailKey, idKey } from '../../domain/rules.js';
import { checkGroupCreditLimits, checkUserCreditLimits } from './configChecks.js';

/** A limit's credits, in the words of `creditLimit` (what "default" means differs per kind). */
function credits(description: string): SchemaNode {
  return {
    description,
    anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }, { const: 'default' }, { $ref: '#/$defs/reference' }],
    errorMessage: 'must be a number ≥ 0, null (unlimited) or `default`',
  };
}

const UNTIL: SchemaNode = {
  description: 'When this entry stops being in force; from then on it is undone, even where prune is off.',
  $ref: '#/$defs/until',
};

const THEN = credits(
  'What the limit goes back to once `until` has passed: credits, null (unlimited) or "default" (no limit of its own). Default: "default".',
);

/** The `ignore` of one entry, whose object `whose` names ("this user's limit"). */
function ignore(whose: string): SchemaNode {
  return {
    description: `Fields of ${whose} steward sets when it creates it and never changes afterwards (live changes made in the app stay): \`creditLimit\`. Identity fields and fields whose change replaces the object cannot be ignored.`,
    $ref: '#/$defs/ignoreList',
  };
}

/** What a limit's `ignore` may name: only its credits; what names its subject is refused with `subject`'s reason. */
function ignoreRules(noun: string, subject: Record<string, string>): IgnoreRules {
  return { noun, fields: ['creditLimit'], refused: { ...subject, protect: STEWARD_SETTING, ignore: STEWARD_SETTING } };
}

/** A limit's `until`, with `then` beside it; `named` names the entry's limit in a sentence. */
function expiry(named: (entry: Record<string, unknown>) => string): ExpiryRules {
  return { companion: 'then', undo: (entry) => limitUndo(entry.then), entry: named };
}

function limitUndo(then: unknown): string {
  if (then === undefined || then === 'default') return 'resets the limit to the default';
  if (then === null) return 'makes the limit unlimited';
  return `sets the limit back to ${String(then)}`;
}

const USER = 'it names the user whose limit it is';
const USER_GROUP = 'it names the group whose limit it is';

export const limitsConfigSchema: KindConfigSchema = {
  kinds: ['userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits'],
  sections: {
    userCreditLimits: {
      schema: {
        description: 'Individual AI credit limits, one entry per user (by e-mail or user id).',
        type: 'array',
        items: { $ref: '#/$defs/userCreditLimit' },
      },
      prunable: {
        prune: 'Reset users with an individual limit that is not declared to the default limit.',
        ignore: 'Ignored fields of every individual user limit: `creditLimit`.',
        protect: 'true, or the e-mails / user ids whose individual limits are never reset.',
        ignoreRules: ignoreRules('user credit limit', { email: USER, userId: USER }),
        protectsByEmail: 'user',
      },
      expiry: expiry((entry) => `the credit limit of ${String(entry.email ?? entry.userId)}`),
      normalize: (entry) => ({
        ...entry,
        ...(typeof entry.email === 'string' ? { email: emailKey(entry.email) } : {}),
        ...(typeof entry.userId === 'string' ? { userId: idKey(entry.userId) } : {}),
      }),
    },
    userGroupCreditLimits: {
      schema: {
        description:
          "AI credit limits per user group (each member gets the group's limit individually), one entry per group (by SCIM display name or user group id).",
        type: 'array',
        items: { $ref: '#/$defs/userGroupCreditLimit' },
      },
      prunable: {
        prune: 'Reset user groups with a limit that is not declared to the default limit.',
        ignore: 'Ignored fields of every user group limit: `creditLimit`.',
        protect: 'true, or the group names / user group ids whose limits are never reset.',
        ignoreRules: ignoreRules('user group credit limit', { group: USER_GROUP, userGroupId: USER_GROUP }),
      },
      expiry: expiry((entry) => `the credit limit of user group "${String(entry.group ?? entry.userGroupId)}"`),
      normalize: (entry) => (typeof entry.userGroupId === 'string' ? { ...entry, userGroupId: idKey(entry.userGroupId) } : entry),
    },
    entityGroupCreditLimits: {
      schema: {
        description: 'AI credit limits per embed entity group, one entry per entity.',
        type: 'array',
        items: { $ref: '#/$defs/entityGroupCreditLimit' },
      },
      prunable: {
        prune: 'Reset entity groups with a limit that is not declared to the default limit.',
        ignore: 'Ignored fields of every entity group limit: `creditLimit`.',
        protect: 'true, or the entities whose limits are never reset.',
        ignoreRules: ignoreRules('entity group credit limit', { entity: 'it names the entity group whose limit it is' }),
      },
      expiry: expiry((entry) => `the credit limit of entity group "${String(entry.entity)}"`),
    },
  },
  definitions: {
    userCreditLimit: {
      description: "One user's individual AI credit limit.",
      type: 'object',
      additionalProperties: false,
      required: ['creditLimit'],
      oneOf: [{ required: ['email'] }, { required: ['userId'] }],
      errorMessage: 'must name the user by exactly one of `email` and `userId`',
      properties: {
        email: {
          description: "The user's e-mail address (resolved to a user id when planning).",
          type: 'string',
        },
        userId: {
          description: "The user's id (membership id) within the organization.",
          type: 'string',
          minLength: 1,
        },
        creditLimit: credits('Credits per billing period; null = explicit unlimited override; "default" = no individual limit (follow userDefaultCredits).'),
        until: UNTIL,
        then: THEN,
        ignore: ignore("this user's limit"),
        protect: {
          description: "Never reset this user's limit, even when it is no longer declared.",
          $ref: '#/$defs/boolean',
        },
      },
    },
    userGroupCreditLimit: {
      description: "One user group's AI credit limit; it applies to each member of the group individually.",
      type: 'object',
      additionalProperties: false,
      required: ['creditLimit'],
      oneOf: [{ required: ['group'] }, { required: ['userGroupId'] }],
      errorMessage: 'must name the group by exactly one of `group` and `userGroupId`',
      properties: {
        group: {
          description: "The group's display name, as SCIM lists it (resolved to the group's id in each deployment when planning; matched exactly).",
          type: 'string',
          minLength: 1,
        },
        userGroupId: {
          description: 'The id the credit-limit API takes for the group (ids differ per deployment: prefer `group`).',
          type: 'string',
          minLength: 1,
        },
        creditLimit: credits(
          'Credits per billing period; null = explicit unlimited override; "default" = no group limit (the organization\'s defaults apply).',
        ),
        until: UNTIL,
        then: THEN,
        ignore: ignore("this group's limit"),
        protect: {
          description: "Never reset this group's limit, even when it is no longer declared.",
          $ref: '#/$defs/boolean',
        },
      },
    },
    entityGroupCreditLimit: {
      description: "One embed entity group's AI credit limit.",
      type: 'object',
      additionalProperties: false,
      required: ['entity', 'creditLimit'],
      properties: {
        entity: {
          description: "The embed entity's name, the same in every deployment.",
          type: 'string',
          minLength: 1,
        },
        creditLimit: credits(
          'Credits per billing period; null = explicit unlimited override; "default" = no individual limit (follow entityGroupDefaultCredits).',
        ),
        until: UNTIL,
        then: THEN,
        ignore: ignore("this entity group's limit"),
        protect: {
          description: "Never reset this entity's limit, even when it is no longer declared.",
          $ref: '#/$defs/boolean',
        },
      },
    },
  },
  checks: [checkUserCreditLimits, checkGroupCreditLimits],
};
