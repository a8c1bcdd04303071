// Each kind folder's part of the configuration, listed once. Apart from registry.ts, which imports
// every kind's module, so that what only reads a configuration (`npm run generate`, and loading
// one, which `steward validate` does on every start) imports these declarations and nothing else
// of the kinds. Adding a kind is its folder, one line in REGISTRY (registry.ts) and one line here.
import type { KindConfigSchema } from '../config/assembleSchema.js';
import { creditControlsConfigSchema } from './creditControls/configSchema.js';
import { labelsConfigSchema } from './labels/configSchema.js';
import { limitsConfigSchema } from './limits/configSchema.js';
import { routinesConfigSchema } from './routines/configSchema.js';

/**
 * Each kind folder's part of the config schema and its checks, in the order a user reads about the
 * kinds: the order of KINDS (`--target`, `export`), of the schema's sections and of the checks'
 * runs. Read by `npm run generate` (scripts/generate-config.ts), which writes the schema and the
 * config's types from them, and by app/config.ts, which loads every configuration with the checks.
 */
export const CONFIG_SCHEMAS: readonly KindConfigSchema[] = [creditControlsConfigSchema, limitsConfigSchema, routinesConfigSchema, labelsConfigSchema];
