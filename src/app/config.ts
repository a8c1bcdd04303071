// A configuration loaded as steward loads it: config/'s analysis with the checks of every kind
// folder (kinds/configRegistry.ts). config/ sits below kinds/ and cannot import them, so its entry
// points cannot be called without the checks; the commands load through these, which hand in every
// kind's. Only the kinds' config declarations are imported, not their modules (kinds/registry.ts),
// so `steward validate` starts without them.
import { analyzeConfig as analyzeWith, type AnalyzeOptions, type ConfigAnalysis } from '../config/analyze.js';
import { loadConfig as loadWith, validateConfig as validateWith, type ConfigLoadResult, type LoadOptions } from '../config/load.js';
import type { Diagnostic } from '../config/types.js';
import { CONFIG_SCHEMAS } from '../kinds/configRegistry.js';

/** Every kind's checks, kind by kind in the order of CONFIG_SCHEMAS. */
const KIND_CHECKS = CONFIG_SCHEMAS.flatMap((declaration) => declaration.checks);

/** Every finding of the configuration at `path`, and what was loaded (config/analyze.ts); never throws for bad input. */
export function analyzeConfig(path: string, options: AnalyzeOptions): Promise<ConfigAnalysis> {
  return analyzeWith(path, KIND_CHECKS, options);
}

/** The configuration at `path` for one environment, having passed every check, or every diagnostic (config/load.ts). */
export function loadConfig(path: string, options: LoadOptions = {}): Promise<ConfigLoadResult> {
  return loadWith(path, KIND_CHECKS, options);
}

/** Every diagnostic of the configuration at `path`, as `steward validate` reports them (config/load.ts). */
export function validateConfig(path: string, options: LoadOptions = {}): Promise<Diagnostic[]> {
  return validateWith(path, KIND_CHECKS, options);
}
