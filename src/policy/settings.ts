// The policies in effect for one environment: the top-level `policies:` with the environment's
// `environments.NAME.policies` laid over it (a rule set there replaces the top-level one; within
// creditLimits and routines, setting by setting; null switches it off), and for each setting
// the config path it was written at, so a violation can point at it.
import type { ConfigPath, PoliciesConfig, StewardConfig } from '../config/types.js';

export interface EffectivePolicies {
  policies: PoliciesConfig;
  /** The config path a setting (`maxDestroy`, `creditLimits.max`) comes from; its group's or the section's when unset. */
  origin(setting: string): ConfigPath;
}

/** The groups of settings under `policies:`; `routines` names the policy group, which shares its name with a kind. */
const GROUPS = ['creditLimits', 'routines'] as const satisfies readonly (keyof PoliciesConfig)[];

/** Resolves the policies of `environment`. Pure. */
export function effectivePolicies(config: StewardConfig, environment: string): EffectivePolicies {
  const top = config.policies ?? {};
  const local = config.environments[environment]?.policies ?? {};
  const topPath: ConfigPath = ['policies'];
  const localPath: ConfigPath = ['environments', environment, 'policies'];
  const policies: Record<string, unknown> = { ...top, ...local };
  for (const group of GROUPS) {
    const over = local[group];
    const base = top[group];
    // An environment's object refines the top-level one; its null switches the group off.
    if (over !== undefined && over !== null && base !== undefined && base !== null) policies[group] = { ...base, ...over };
  }
  const has = (record: object | null | undefined, key: string) => record !== null && record !== undefined && Object.hasOwn(record, key);
  const origin = (setting: string): ConfigPath => {
    const [group, field] = setting.split('.') as [keyof PoliciesConfig, string | undefined];
    if (field !== undefined) {
      const localGroup = local[group];
      const topGroup = top[group];
      if (typeof localGroup === 'object' && has(localGroup, field)) return [...localPath, group, field];
      if (localGroup !== null && typeof topGroup === 'object' && has(topGroup, field)) return [...topPath, group, field];
      return origin(group);
    }
    if (has(local, group)) return [...localPath, group];
    if (has(top, group)) return [...topPath, group];
    return has(config.environments[environment], 'policies') ? localPath : topPath;
  };
  return { policies: policies as PoliciesConfig, origin };
}
