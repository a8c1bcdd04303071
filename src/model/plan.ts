// The plan: plain data made by a pure function of (desired, live). Rendering, saving and
// applying all read this shape; nothing in it is a token or a live connection. Its JSON form is
// declared once, in planFormat.ts, which gives both schemas/plan.schema.json and the types here:
// what this file adds is the typing of steps by kind, which the schema leaves open.
//
// Steps are typed by their kind. Each kind declares what its steps' `before`, `after` and `ref`
// hold by adding its entry to KindSteps from its own folder (module augmentation), so this file
// names no kind and a new kind brings its step types with its module, as it brings its code.
// `PlanStep<K>` is a step of kind K, what that kind's module receives; `PlanStep` is a step of
// any kind, and narrowing it on `kind` gives that kind's. Chosen over one open state for all
// (`Record<string, unknown>`, where every read was a cast or a `!`) and over a table of the kinds'
// shapes written here (the model would name every kind). A plan file's steps take these types
// where the file is decoded (engine/planFile.ts).
import type { ACTION_HOLDS, Action, FieldChange, OpenImpact, OpenPlan, OpenStep, PlanRecipient, PlanSummary } from './planFormat.js';

export { PLAN_FORMAT_VERSION, RECIPIENT_CLASSES } from './planFormat.js';
export type {
  Action,
  FieldChange,
  PlanApplyCost,
  PlanExpiry,
  PlanHeldField,
  PlanPromotion,
  PlanRecipient,
  PlanSummary,
  PlanWarning,
  RecipientClass,
} from './planFormat.js';

export type { Exposure } from '../domain/exposure.js';

export type { PlanGroup, PlanIdentities, PlanModel, PlanUser } from '../resolve/identities.js';

/** Severity order used to lead with the worst (cloudformation-diff's worstImpact). */
export const ACTION_SEVERITY: Record<Action, number> = { delete: 3, replace: 2, update: 1, create: 0 };

/**
 * What each kind's steps hold, by kind: `state`, the compared fields of its object (a step's
 * `before` and `after`), and `ref`, the ids its applier needs that are not compared. An interface,
 * because only an interface can be added to from elsewhere; each kind adds its entry in its module:
 *
 *     declare module '../../model/plan.js' {
 *       interface KindSteps { routines: { state: Partial<RoutineState>; ref: RoutineRef } }
 *     }
 *
 * A state is an object type whose fields can be listed (a type literal, a `Partial<…>`, not an
 * interface): code that handles any step reads it field by field.
 */
export interface KindSteps {}

/**
 * The kinds whose steps a plan may hold: every kind declares its step types in KindSteps. The
 * registry is keyed by it, so a step's `kind` finds its module whether or not the config names
 * the kind (config/types.ts `Kind` lists those it does: every kind steward ships, the kinds the
 * plan's schema names).
 */
export type StepKind = keyof KindSteps;

/**
 * What every step of kind K has: the schema's step (planFormat.ts), with its kind and its `ref`
 * as the kind declares them (a ref that is not the schema's map of ids does not compile).
 * `before`, `after` and `fields` come with the action, below.
 */
interface StepBase<K extends StepKind> extends Omit<OpenStep, 'kind' | 'action' | 'before' | 'after' | 'fields'> {
  kind: K;
  ref: KindSteps[K]['ref'];
}

/** What a step of kind K holds, of the members its action decides. */
interface ActionMembers<K extends StepKind> {
  before: KindSteps[K]['state'];
  after: KindSteps[K]['state'];
  fields: FieldChange[];
}

/** A step of kind K and action A, holding what ACTION_HOLDS (planFormat.ts) gives A, as the schema does. */
type StepOf<K extends StepKind, A extends Action> = StepBase<K> & { action: A } & Pick<ActionMembers<K>, (typeof ACTION_HOLDS)[A][number]>;

export type CreateStep<K extends StepKind> = StepOf<K, 'create'>;
export type UpdateStep<K extends StepKind> = StepOf<K, 'update'>;
export type ReplaceStep<K extends StepKind> = StepOf<K, 'replace'>;
export type DeleteStep<K extends StepKind> = StepOf<K, 'delete'>;

/**
 * A step of kind K, a discriminated union on `action`: every `switch` over it ends in
 * `unreachable` (errors.ts). Without K, a step of any kind, discriminated on `kind` too: code that
 * handles any step reads what all steps have, and narrowing on `kind` gives that kind's step.
 */
export type PlanStep<K extends StepKind = StepKind> = { [Of in K]: CreateStep<Of> | UpdateStep<Of> | ReplaceStep<Of> | DeleteStep<Of> }[K];

/**
 * What a step that lowers a credit limit does to this period's usage once applied: a threshold
 * the organization has passed, a user whose usage is at or above her new limit. `certain` is
 * false where the organization's total stands in for usage that is not read one by one (the
 * default, a user group's or an entity group's members). Its kind is its step's.
 */
export interface PlanImpact extends Omit<OpenImpact, 'kind'> {
  kind: StepKind;
}

/** A plan: the schema's (planFormat.ts), with its steps and impacts typed by kind. */
export interface Plan extends Omit<OpenPlan, 'steps' | 'impacts'> {
  steps: PlanStep[];
  impacts?: PlanImpact[];
}

/** Counts steps by action. */
export function summarize(steps: readonly PlanStep[]): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, replace: 0, delete: 0 };
  for (const step of steps) summary[step.action] += 1;
  return summary;
}

/** True when the plan deletes or replaces something (CI may gate on it). */
export function isDestructive(plan: Pick<Plan, 'steps'>): boolean {
  return plan.steps.some((step) => step.action === 'delete' || step.action === 'replace');
}

/** Recipients that are not an active user of the instance: no user at all, or a deactivated one. */
export function outsideTheInstance(recipient: PlanRecipient): boolean {
  return recipient.is === 'not-a-user' || recipient.is === 'deactivated-user';
}
