// `--strict` (plan, apply, diff, drift): the warnings that mean the config names something this
// deployment does not have (a document or folder a label lists) become an error, so a typo fails
// CI instead of leaving a warning nobody reads. Other warnings (a replacement's cost, a far-off
// schedule, a --target that matches no change) describe a plan that is right, and stay warnings.
import { StewardError } from '../errors.js';
import type { PlanWarning } from '../model/plan.js';

/** Throws `plan.strict` listing every warning that names something missing; returns when there is none. */
export function refuseUnderStrict(warnings: readonly PlanWarning[]): void {
  const missing = warnings.filter((warning) => warning.namesMissing === true);
  if (missing.length === 0) return;
  const message =
    missing.length === 1
      ? `--strict: ${missing[0]!.message}`
      : `--strict: the configuration names ${missing.length} things this deployment does not have:\n${missing.map((warning) => `  ${warning.message}`).join('\n')}`;
  throw new StewardError('plan.strict', message, 'user', {
    hint: 'correct or remove the names in the config (identifiers may differ between deployments: a per-environment variable can hold them); without --strict they are only warnings',
    details: { warnings: missing.map(({ code, message: text }) => ({ code, message: text })) },
  });
}
