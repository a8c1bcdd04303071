// `--strict` (plan, apply, diff, drift): the warnings that mean the config names something this
// deployment does not have (a document or folder a label lists) become an error, so a typo fails
// CI instead of leaving a warning nobody reads. Other warnings (a replacement's cost, a far-off
// schedule, a --target that matches no change) describe a plan that is right, and stay warnings.
import type { LoadedConfig, SourceLocation } from '../config/types.js';
import { StewardError } from '../errors.js';
import type { PlanWarning } from '../model/plan.js';

/**
 * Throws `plan.strict` listing every warning that names something missing, each at the place the
 * config writes it (`config`: where the warnings' config paths are; a saved plan checked before
 * its config is loaded has none); returns when there is none.
 */
export function refuseUnderStrict(warnings: readonly PlanWarning[], config?: Pick<LoadedConfig, 'locate'>): void {
  const missing = warnings
    .filter((warning) => warning.namesMissing === true)
    .map((warning) => ({ warning, at: warning.configPath === undefined ? undefined : config?.locate(warning.configPath) }));
  if (missing.length === 0) return;
  const where = (at: SourceLocation | undefined) => (at === undefined ? '' : `${at.file}:${at.line}:${at.col}: `);
  const message =
    missing.length === 1
      ? `--strict: ${missing[0]!.warning.message}`
      : `--strict: the configuration names ${missing.length} things this deployment does not have:\n${missing.map(({ warning, at }) => `  ${where(at)}${warning.message}`).join('\n')}`;
  const positions = missing.flatMap(({ at }) => (at === undefined ? [] : [at]));
  throw new StewardError('plan.strict', message, 'user', {
    hint: 'correct or remove the names in the config (identifiers may differ between deployments: a per-environment variable can hold them); without --strict they are only warnings',
    details: {
      warnings: missing.map(({ warning: { code, message: text }, at }) => ({ code, message: text, ...(at === undefined ? {} : { position: at }) })),
      ...(positions[0] === undefined ? {} : { position: positions[0], positions }),
    },
  });
}
