// Every resource kind, registered once, and each kind folder's part of the config schema. Adding
// a kind is its folder and one line in each list here; the registry refuses two modules for one
// kind, and assembling the schema two declarations of one kind, section or definition.
import type { KindConfigSchema } from '../config/assembleSchema.js';
import { creditControls } from './creditControls/creditControls.js';
import { creditControlsConfigSchema } from './creditControls/configSchema.js';
import { documentLabels } from './labels/documentLabels.js';
import { entityGroupCreditLimits } from './limits/entityGroupCreditLimits.js';
import { folderLabels } from './labels/folderLabels.js';
import type { ResourceKind } from '../model/kind.js';
import type { StepKind } from '../model/plan.js';
import { labels } from './labels/labels.js';
import { labelsConfigSchema } from './labels/configSchema.js';
import { limitsConfigSchema } from './limits/configSchema.js';
import { routines } from './routines/routines.js';
import { routinesConfigSchema } from './routines/configSchema.js';
import { userCreditLimits } from './limits/userCreditLimits.js';
import { userGroupCreditLimits } from './limits/userGroupCreditLimits.js';

/**
 * Builds a registry from modules, refusing duplicates and unknown read dependencies. Each module
 * is typed by its own desired, live and step types, which its methods take as parameters, so no
 * one type describes them all: the registry is the one place they are held as any kind
 * (`ResourceKind<any, any, any>` in, `ResourceKind` out), and the engine hands each module only
 * its own desired state, live state and steps, keyed by its `kind`.
 */
export function createRegistry(modules: readonly ResourceKind<any, any, any>[]): ReadonlyMap<StepKind, ResourceKind> {
  const registry = new Map<StepKind, ResourceKind>();
  for (const module of modules) {
    if (registry.has(module.kind)) throw new Error(`resource kind ${module.kind} is registered twice`);
    registry.set(module.kind, module as ResourceKind);
  }
  for (const module of modules) {
    for (const dependency of module.readAfter) {
      if (!registry.has(dependency)) throw new Error(`resource kind ${module.kind} reads after unregistered kind ${dependency}`);
    }
  }
  return registry;
}

/** In this order within each level of the plan's order (engine/order.ts), and in every list of kinds. */
export const REGISTRY = createRegistry([creditControls, labels, userCreditLimits, userGroupCreditLimits, entityGroupCreditLimits, routines, documentLabels, folderLabels]);

/**
 * Each kind folder's part of the config schema, in the order a user reads about the kinds: the
 * order of KINDS (`--target`, `export`) and of the schema's sections. Read by `npm run generate`
 * (scripts/generate-config.ts), which writes the schema and the config's types from them.
 */
export const CONFIG_SCHEMAS: readonly KindConfigSchema[] = [creditControlsConfigSchema, limitsConfigSchema, routinesConfigSchema, labelsConfigSchema];
