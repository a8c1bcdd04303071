// Credit limits per embed entity group. Identity is the entity name, the same in every deployment
// (no resolution needed). A limit is a number, `null` (explicit unlimited) or "default" (follow
// `entityGroupDefaultCredits`). Writes are bulk PATCHes of up to 1000 entities, sets and resets in
// one body, each applied atomically. An entity the deployment does not know answers 404 at apply:
// no endpoint lists entities without a limit, so a plan cannot check them.
import type { EntityGroupCreditLimitWrite } from '../../api/types.js';
import type { EntityGroupCreditLimitConfig } from '../../config/types.js';
import { CREDIT_LIMIT_BATCH_MAX } from '../../domain/rules.js';
import type { PlanStep } from '../../model/plan.js';
import type { KindExport, ResourceKind } from '../../model/kind.js';
import { compareText, creditLimitValues, expectLimitsTaken, textOf, withOwnFlags } from '../shared.js';
import { type DesiredLimit, limitInForce, limitPresentation, type LimitState, limitSteps, limitValue } from './limitSteps.js';
import { protectedInEnvironment } from '../protection.js';
import { ignoredFields } from '../../config/ignore.js';
import { groupLowered, liveCreditControls } from '../lowered.js';

declare module '../../model/plan.js' {
  interface KindSteps {
    /** An entity group's limit; `ref.entity` names the entity. */
    entityGroupCreditLimits: { state: LimitState; ref: { entity: string } };
  }
}

export interface DesiredEntityGroupLimits {
  limits: DesiredLimit[];
  prune: boolean;
  isProtected: (entity: string) => boolean;
}

/** Live limits: entity → limit (null = explicit unlimited). */
export type LiveEntityGroupLimits = Map<string, number | null>;

// Export: every entity group limit.

/** One entity group limit. */
export interface LiveEntityLimit {
  entity: string;
  creditLimit: number | null;
}

const entityGroupCreditLimitsExport: KindExport<DesiredEntityGroupLimits, LiveEntityGroupLimits, LiveEntityLimit[]> = {
  async read(context) {
    const live = await context.read({ limits: [], prune: false, isProtected: () => false });
    return [...live].map(([entity, creditLimit]) => ({ entity, creditLimit }));
  },
  section: entityGroupCreditLimitsConfig,
  holds: () => 'entity group credit limits',
  promoted: { withFlags: withOwnFlags<EntityGroupCreditLimitConfig> },
};

/** One entry per entity group limit, sorted by entity. */
export function entityGroupCreditLimitsConfig(live: readonly LiveEntityLimit[]): EntityGroupCreditLimitConfig[] {
  return live.map((limit) => ({ entity: limit.entity, creditLimit: limit.creditLimit })).sort((a, b) => compareText(a.entity, b.entity));
}

export const entityGroupCreditLimits: ResourceKind<DesiredEntityGroupLimits, LiveEntityGroupLimits, 'entityGroupCreditLimits'> = {
  kind: 'entityGroupCreditLimits',
  presentation: limitPresentation(['entity group credit limit', 'entity group credit limits'], (key) => `entity group credit limit "${key}"`),
  order: { level: 1, deletesAreResets: true },
  entries: { keyOf: (entry) => textOf(entry.entity), hasKey: (entry, key) => entry.entity === key, identityFields: ['entity'] },
  targeting: {
    noun: 'entity group credit limit for',
    names: (config) => (config.entityGroupCreditLimits ?? []).map((limit) => limit.entity),
    pruned: (config) => config.prune?.entityGroupCreditLimits === true,
  },
  access: { adminOnly: true },
  export: entityGroupCreditLimitsExport,
  readAfter: [],

  declared: (config) => config.entityGroupCreditLimits !== undefined || config.prune?.entityGroupCreditLimits === true,

  emails: () => [],

  desired({ config, environment, now }) {
    return {
      limits: (config.entityGroupCreditLimits ?? []).map((entry, index) => ({
        index,
        id: entry.entity,
        display: entry.entity,
        ...limitInForce(entry, now),
        protect: entry.protect === true,
        ignoreLimit: ignoredFields(config, 'entityGroupCreditLimits', entry).includes('creditLimit'),
      })),
      prune: config.prune?.entityGroupCreditLimits === true,
      isProtected: (entity) => protectedInEnvironment(environment, 'entityGroupCreditLimits', [entity]),
    };
  },

  async read({ api }) {
    const live: LiveEntityGroupLimits = new Map();
    for await (const record of api.listEntityGroupCreditLimits()) live.set(record.entity, record.creditLimit);
    return live;
  },

  diff(desired, live) {
    const steps = limitSteps(
      {
        kind: 'entityGroupCreditLimits',
        refOf: (entity) => ({ entity }),
        describe: (entity) => `the credit limit of entity group "${entity}"`,
        limits: desired.limits,
        prune: desired.prune,
        isProtected: desired.isProtected,
        displayOf: (entity) => entity,
      },
      live,
    );
    return { steps, warnings: [] };
  },

  current(step, live) {
    const entity = step.ref.entity;
    return live.has(entity) ? { creditLimit: live.get(entity)! } : undefined;
  },

  /** Bulk PATCHes of at most 1000 entities, sets and resets together; a batch succeeds or fails whole. */
  async apply(steps, { api, attempt }) {
    for (let start = 0; start < steps.length; start += CREDIT_LIMIT_BATCH_MAX) {
      const batch = steps.slice(start, start + CREDIT_LIMIT_BATCH_MAX);
      await attempt(batch, async () => {
        const { entityGroups } = await api.patchEntityGroupCreditLimits({ entityGroups: batch.map(entityLimitWrite) });
        expectLimitsTaken('the credit limit', batch, new Map(entityGroups.map((group) => [group.entity, group])), (step) => entityLimitWrite(step).entity);
      });
    }
  },

  writeRequests: (steps) => Math.ceil(steps.length / CREDIT_LIMIT_BATCH_MAX),

  credits: creditLimitValues,

  lowered: (step, allLive) => groupLowered(step, 'entityGroup', liveCreditControls(allLive)?.entityGroupDefaultCredits, allLive),
};

/** The bulk-PATCH entry that carries out one step. */
export function entityLimitWrite(step: PlanStep<'entityGroupCreditLimits'>): EntityGroupCreditLimitWrite {
  return { entity: step.ref.entity, ...limitValue(step) };
}
