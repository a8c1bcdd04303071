// A configuration loaded as steward loads it: config/'s analysis with every kind folder's
// declaration of its part of the config (kinds/configRegistry.ts): its checks, and what its
// sections say of their entries (`ignore`, `until`, identities, multiline text). config/ sits
// below kinds/ and cannot import them, so its entry points cannot be called without the
// declarations; the commands load through these, which hand in every kind's. Only the kinds'
// config declarations are imported, not their modules (kinds/registry.ts), so `steward validate`
// starts without them.
import { analyzeConfig as analyzeWith, type AnalyzeOptions, type ConfigAnalysis } from '../config/analyze.js';
import { expiriesBetween as expiriesWith, type PassedExpiry } from '../config/expiry.js';
import { kindRules } from '../config/kindRules.js';
import { loadConfig as loadWith, validateConfig as validateWith, type ConfigLoadResult, type LoadOptions } from '../config/load.js';
import type { Diagnostic, StewardConfig } from '../config/types.js';
import { CONFIG_SCHEMAS } from '../kinds/configRegistry.js';

/** Every finding of the configuration at `path`, and what was loaded (config/analyze.ts); never throws for bad input. */
export function analyzeConfig(path: string, options: AnalyzeOptions): Promise<ConfigAnalysis> {
  return analyzeWith(path, CONFIG_SCHEMAS, options);
}

/** The configuration at `path` for one environment, having passed every check, or every diagnostic (config/load.ts). */
export function loadConfig(path: string, options: LoadOptions = {}): Promise<ConfigLoadResult> {
  return loadWith(path, CONFIG_SCHEMAS, options);
}

/** Every diagnostic of the configuration at `path`, as `steward validate` reports them (config/load.ts). */
export function validateConfig(path: string, options: LoadOptions = {}): Promise<Diagnostic[]> {
  return validateWith(path, CONFIG_SCHEMAS, options);
}

/** The entries of a loaded configuration whose `until` passed after `from` and by `to`, each named as its kind names it (config/expiry.ts). */
export function expiriesBetween(config: StewardConfig, from: Date, to: Date): PassedExpiry[] {
  return expiriesWith(config, kindRules(CONFIG_SCHEMAS).expiry, from, to);
}
