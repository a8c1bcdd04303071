// What the kinds share when they write: how a thrown error becomes a step's outcome, the second
// create after a lost answer, and the checks that an answer shows what was sent; the order their
// exported entries take, and the flags a promoted entry keeps from the config.
import { ApiError, isOutcomeUnknown } from '../api/errors.js';
import { StewardError } from '../errors.js';
import { changedFields, pick } from '../model/fields.js';
import type { PlanStep } from '../model/plan.js';
import type { CreditValue, StepFailure } from '../model/kind.js';
import type { LimitKind } from './limits/limitSteps.js';

/** The credit value of a limit step (`after.creditLimit`; a reset to the default writes none). */
export function creditLimitValues(step: PlanStep<LimitKind>): CreditValue[] {
  if (step.action === 'delete') return [];
  const value = step.after.creditLimit;
  return typeof value === 'number' || value === null ? [{ field: 'creditLimit', value, nullMeans: 'unlimited' }] : [];
}

/** A thrown error as a failed outcome with the server's words and what the executor judges by. */
export function failureOf(error: unknown): StepFailure {
  const failure: StepFailure = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
  if (error instanceof StewardError && error.hint !== undefined) failure.hint = error.hint;
  if (isOutcomeUnknown(error)) {
    failure.outcomeUnknown = true;
    failure.summary = error.summary;
  }
  if (error instanceof StewardError && error.code === 'apply.outcome-unknown') {
    failure.outcomeUnknown = true;
    failure.sentTwice = true;
  }
  if (error instanceof StewardError && error.code === 'apply.not-sent') failure.notSent = true;
  if (error instanceof NotTaken) failure.notTaken = error.byStep;
  if (error instanceof ApiError && error.status !== undefined) {
    failure.httpStatus = error.status;
    if (error.status === 401 || error.status === 403) failure.fatal = 'auth';
  }
  return failure;
}

/**
 * The second create after a lost response, sent only once a read-back found nothing. If its
 * outcome is lost too, the error says what steward already did, so the user knows a re-run is safe.
 */
export async function createOnceMore<T>(create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!isOutcomeUnknown(error)) throw error;
    throw new StewardError(
      'apply.outcome-unknown',
      `${error.summary}; the response was lost twice (steward looked for it in between and found nothing). Run apply again: it looks before it creates`,
      'server',
      { cause: error },
    );
  }
}

/**
 * Fails a write that the server answered as done when the object in its answer holds other
 * values than were sent: a field it ignores, clamps or rewrites. The next plan would show the
 * same change again, so reporting it done would be the surprise (the check Terraform calls an
 * inconsistent result after apply). Fields are compared as the plan compares them, and only
 * those the answer holds; `answered` is the answer in the plan's terms.
 */
export function expectTaken(what: string, sent: Record<string, unknown>, answered: Record<string, unknown>): void {
  const keys = Object.keys(sent).filter((key) => key in answered);
  const differing = changedFields(pick(answered, keys), pick(sent, keys));
  if (differing.length === 0) return;
  const shown = (value: unknown) => {
    const text = value === undefined ? '(none)' : JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const fields = differing.map((field) => `${field.path} ${shown(field.before)} (sent ${shown(field.after)})`).join(', ');
  throw new StewardError('apply.not-taken', `${what}: the server accepted the write, but its answer holds ${fields}; the change did not take`, 'server', {
    hint: 'the server ignored or rewrote the value, and the next plan will show the change again; check the object in the app',
  });
}

/** A bulk write whose answer shows some of its steps not taken; the others were. */
export class NotTaken extends StewardError {
  constructor(readonly byStep: ReadonlyMap<string, string>) {
    super('apply.not-taken', [...byStep.values()].join('; '), 'server');
  }
}

/**
 * For a bulk limit PATCH: each step's entry in the answer must show what was sent, a set limit
 * as `creditLimit`, a reset as `usesDefaultLimit` (its `creditLimit` is then the default the
 * subject falls back to). Steps the answer leaves out are not judged.
 */
export function expectLimitsTaken<K extends LimitKind>(
  what: string,
  steps: readonly PlanStep<K>[],
  answered: ReadonlyMap<string, { creditLimit: number | null; usesDefaultLimit?: boolean }>,
  subjectOf: (step: PlanStep<K>) => string,
): void {
  const byStep = new Map<string, string>();
  for (const step of steps) {
    const entry = answered.get(subjectOf(step));
    if (entry === undefined) continue;
    if (step.action === 'delete') {
      if (entry.usesDefaultLimit === false) byStep.set(step.id, `${what} of ${step.key}: the server accepted the reset to the default, but its answer holds its own limit ${JSON.stringify(entry.creditLimit)}; the change did not take`);
    } else if (entry.creditLimit !== step.after.creditLimit || entry.usesDefaultLimit === true) {
      byStep.set(step.id, `${what} of ${step.key}: the server accepted the write, but its answer holds ${entry.usesDefaultLimit === true ? 'the default limit' : `creditLimit ${JSON.stringify(entry.creditLimit)}`} (sent ${JSON.stringify(step.after.creditLimit)}); the change did not take`);
    }
  }
  if (byStep.size > 0) throw new NotTaken(byStep);
}

/** A config value when it is text. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Orders text by code unit, the same on every machine: exported entries are sorted with it, so two exports of one state are equal. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A promoted entry with the config's own flags for it (`declared`): `protect`, and the fields it ignores. */
export function withOwnFlags<Entry extends { protect?: boolean; ignore?: string[] }>(entry: Entry, declared: Entry): Entry {
  return { ...entry, ...(declared.protect === true ? { protect: true } : {}), ...(declared.ignore === undefined ? {} : { ignore: declared.ignore }) };
}
