// Every resource kind, registered once. Adding a kind is its folder, one line here and one in
// configRegistry.ts (its part of the configuration); the registry refuses two modules for one
// kind, and assembling the schema two declarations of one kind, section or definition.
import { creditControls } from './creditControls/creditControls.js';
import { documentLabels } from './labels/documentLabels.js';
import { entityGroupCreditLimits } from './limits/entityGroupCreditLimits.js';
import { folderLabels } from './labels/folderLabels.js';
import type { ResourceKind } from '../model/kind.js';
import type { StepKind } from '../model/plan.js';
import { labels } from './labels/labels.js';
import { routines } from './routines/routines.js';
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
