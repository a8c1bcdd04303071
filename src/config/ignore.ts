// `ignore:` — fields steward sets when it creates an object and never changes afterwards, on an
// object (`ignore: [paused]`) or for every object of a kind (top-level `ignore: { routines:
// [paused] }`). Which fields each kind lets go, and why the others cannot be: a field that names
// the object, one whose change replaces it, or a setting of steward's own.
import type { Findings } from './findings.js';
import { isRecord } from './sources.js';
import { didYouMean, listNames } from './suggest.js';
import type { ConfigPath, PrunableKind, StewardConfig } from './types.js';

interface IgnoreRules {
  /** What an object of the kind is called in messages. */
  noun: string;
  /** The fields that may be ignored. */
  fields: readonly string[];
  /** Fields of the kind that may not be, with why. */
  refused: Readonly<Record<string, string>>;
}

const SETTING = 'it is a setting of steward, not a field of the object on the server';
const LIMIT_REFUSED = { protect: SETTING, ignore: SETTING };

export const IGNORE_RULES: Readonly<Record<PrunableKind, IgnoreRules>> = {
  userCreditLimits: {
    noun: 'user credit limit',
    fields: ['creditLimit'],
    refused: { email: 'it names the user whose limit it is', userId: 'it names the user whose limit it is', ...LIMIT_REFUSED },
  },
  userGroupCreditLimits: {
    noun: 'user group credit limit',
    fields: ['creditLimit'],
    refused: { group: 'it names the group whose limit it is', userGroupId: 'it names the group whose limit it is', ...LIMIT_REFUSED },
  },
  entityGroupCreditLimits: {
    noun: 'entity group credit limit',
    fields: ['creditLimit'],
    refused: { entity: 'it names the entity group whose limit it is', ...LIMIT_REFUSED },
  },
  routines: {
    noun: 'routine',
    fields: ['description', 'prompt', 'schedule', 'timezone', 'destination', 'paused'],
    refused: {
      name: 'it identifies the routine',
      owner: 'it names whose routine it is',
      model: 'changing the model can replace the routine, and it takes the branch and topic with it',
      modelId: 'changing the model can replace the routine, and it takes the branch and topic with it',
      branch: 'changing it replaces the routine',
      branchId: 'changing it replaces the routine',
      topicName: 'changing it replaces the routine',
      renamedFrom: SETTING,
      protect: SETTING,
      duplicates: SETTING,
      ignore: SETTING,
    },
  },
  labels: {
    noun: 'label',
    fields: ['color', 'description', 'verified', 'homepage'],
    refused: {
      name: 'it identifies the label',
      renamedFrom: SETTING,
      documents: 'it is not a field of the label: leave `documents` out and steward leaves the label\'s documents alone',
      folders: 'it is not a field of the label: leave `folders` out and steward leaves the label\'s folders alone',
      pruneDocuments: SETTING,
      pruneFolders: SETTING,
      protect: SETTING,
      ignore: SETTING,
    },
  },
};

/** Routine fields that replace the routine under the documented PUT (`routineUpdate: put`, the default), not under PATCH. */
const REPLACED_BY_PUT = new Set(['timezone', 'destination']);

/** The fields ignored on `entry` of `kind`: its own `ignore` and the kind's, once each. */
export function ignoredFields(config: Pick<StewardConfig, 'ignore'>, kind: PrunableKind, entry: { ignore?: readonly string[] }): string[] {
  return [...new Set([...(config.ignore?.[kind] ?? []), ...(entry.ignore ?? [])])];
}

/** Every `ignore` list: fields the kind has and lets go of, with did-you-mean and the reason for a refusal. */
export function checkIgnore(config: Record<string, unknown>, findings: Findings): void {
  const byPut = environmentsUpdatingByPut(config.environments);
  const check = (kind: PrunableKind, list: unknown, path: ConfigPath) => {
    if (!Array.isArray(list)) return;
    const rules = IGNORE_RULES[kind];
    list.forEach((field, index) => {
      if (typeof field !== 'string') return;
      const at: ConfigPath = [...path, index];
      const reason = Object.hasOwn(rules.refused, field) ? rules.refused[field] : undefined;
      if (reason !== undefined) {
        findings.add('ignore.refused', at, `\`${field}\` cannot be ignored: ${reason}`, { hint: `a ${rules.noun} may ignore ${listNames(rules.fields, 'or')}` });
      } else if (!rules.fields.includes(field)) {
        const suggestion = didYouMean(field, rules.fields);
        findings.add('ignore.unknown', at, `\`${field}\` is not a field of a ${rules.noun}`, {
          hint: `${suggestion === undefined ? '' : `${suggestion} `}a ${rules.noun} may ignore ${listNames(rules.fields, 'or')}`,
        });
      } else if (kind === 'routines' && REPLACED_BY_PUT.has(field) && byPut.length > 0) {
        findings.add('ignore.refused', at, `\`${field}\` cannot be ignored: in ${listNames(byPut)} (routineUpdate: put, the documented update) changing it replaces the routine`, {
          hint: 'a server with the PATCH update changes it in place (`routineUpdate: patch` on the environment); otherwise leave it managed',
        });
      }
    });
  };
  const kinds = Object.keys(IGNORE_RULES) as PrunableKind[];
  for (const kind of kinds) {
    const section = config[kind];
    if (Array.isArray(section)) section.forEach((entry, index) => isRecord(entry) && entry.ignore !== undefined && check(kind, entry.ignore, [kind, index, 'ignore']));
  }
  if (isRecord(config.ignore)) for (const kind of kinds) check(kind, config.ignore[kind], ['ignore', kind]);
}

/** The environments that update routines by the documented PUT (every one without `routineUpdate: patch`). */
function environmentsUpdatingByPut(environments: unknown): string[] {
  if (!isRecord(environments)) return [];
  return Object.entries(environments).flatMap(([name, environment]) => (isRecord(environment) && environment.routineUpdate === 'patch' ? [] : [name]));
}
