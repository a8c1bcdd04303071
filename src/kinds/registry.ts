// Every resource kind, registered once. Adding a kind is one module and one line here; the
// registry refuses two modules for one kind.
import type { Kind } from '../config/types.js';
import { creditControls } from './creditControls.js';
import { documentLabels } from './documentLabels.js';
import { entityGroupCreditLimits } from './entityGroupCreditLimits.js';
import { folderLabels } from './folderLabels.js';
import type { ResourceKind } from '../model/kind.js';
import { labels } from './labels.js';
import { routines } from './routines.js';
import { userCreditLimits } from './userCreditLimits.js';
import { userGroupCreditLimits } from './userGroupCreditLimits.js';

/** Builds a registry from modules, refusing duplicates and unknown read dependencies. */
export function createRegistry(modules: readonly ResourceKind<any, any>[]): ReadonlyMap<Kind, ResourceKind> {
  const registry = new Map<Kind, ResourceKind>();
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
