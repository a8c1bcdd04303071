// `ignore:` — fields steward sets when it creates an object and never changes afterwards, on an
// object (`ignore: [paused]`) or for every object of a kind (top-level `ignore: { routines:
// [paused] }`). Which fields each kind lets go, and why the others cannot be (a field that names
// the object, one whose change replaces it, or a setting of steward's own), each prunable kind
// declares with its section (kinds/<folder>/configSchema.ts); this checks the lists against that.
import type { Findings } from './findings.js';
import { isRecord } from './sources.js';
import { didYouMean, listNames } from './suggest.js';
import type { ConfigPath, PrunableKind, StewardConfig } from './types.js';

/** What a prunable kind's `ignore` lists may name, declared with its section (`ConfigSection`'s `prunable`). */
export interface IgnoreRules {
  /** What an object of the kind is called in messages. */
  readonly noun: string;
  /** The fields that may be ignored. */
  readonly fields: readonly string[];
  /** Fields of the kind that may not be, with why. */
  readonly refused: Readonly<Record<string, string>>;
  /**
   * A field it may ignore that this configuration refuses all the same (a field some environments
   * replace the object to change), with why and what to do instead; undefined where it may.
   */
  readonly refusedIn?: (config: Record<string, unknown>, field: string) => { reason: string; hint: string } | undefined;
}

/** Why a setting of steward's own (`protect`, `ignore`) cannot be ignored: every kind refuses them so. */
export const STEWARD_SETTING = 'it is a setting of steward, not a field of the object on the server';

/** The fields ignored on `entry` of `kind`: its own `ignore` and the kind's, once each. */
export function ignoredFields(config: Pick<StewardConfig, 'ignore'>, kind: PrunableKind, entry: { ignore?: readonly string[] }): string[] {
  return [...new Set([...(config.ignore?.[kind] ?? []), ...(entry.ignore ?? [])])];
}

/**
 * Every `ignore` list: fields the kind has and lets go of, with did-you-mean and the reason for a
 * refusal. `rules` holds each prunable kind's, in the order of the kinds' declarations.
 */
export function checkIgnore(config: Record<string, unknown>, findings: Findings, rules: ReadonlyMap<string, IgnoreRules>): void {
  const check = (kindRules: IgnoreRules, list: unknown, path: ConfigPath) => {
    if (!Array.isArray(list)) return;
    list.forEach((field, index) => {
      if (typeof field !== 'string') return;
      const at: ConfigPath = [...path, index];
      const reason = Object.hasOwn(kindRules.refused, field) ? kindRules.refused[field] : undefined;
      const hint = `a ${kindRules.noun} may ignore ${listNames(kindRules.fields, 'or')}`;
      if (reason !== undefined) {
        findings.add('ignore.refused', at, `\`${field}\` cannot be ignored: ${reason}`, { hint });
      } else if (!kindRules.fields.includes(field)) {
        const suggestion = didYouMean(field, kindRules.fields);
        findings.add('ignore.unknown', at, `\`${field}\` is not a field of a ${kindRules.noun}`, { hint: `${suggestion === undefined ? '' : `${suggestion} `}${hint}` });
      } else {
        const refusal = kindRules.refusedIn?.(config, field);
        if (refusal !== undefined) findings.add('ignore.refused', at, `\`${field}\` cannot be ignored: ${refusal.reason}`, { hint: refusal.hint });
      }
    });
  };
  for (const [kind, kindRules] of rules) {
    const section = config[kind];
    if (Array.isArray(section)) section.forEach((entry, index) => isRecord(entry) && entry.ignore !== undefined && check(kindRules, entry.ignore, [kind, index, 'ignore']));
  }
  if (isRecord(config.ignore)) for (const [kind, kindRules] of rules) check(kindRules, config.ignore[kind], ['ignore', kind]);
}
