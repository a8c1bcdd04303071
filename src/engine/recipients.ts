// Who the output reaches: every step whose kind sends output (a routine) carries the recipients it
// adds and removes, each classified: a user of the instance, no user (with the directory's
// did-you-mean), a deactivated user, a user group, a Slack channel or user. E-mails are looked up
// in the directory with the fewest requests, only those of steps that change recipients; a key
// that cannot read the directory (a personal token: SCIM takes organization keys only) leaves
// them "not checked", said once.
import { emailKey } from '../domain/rules.js';
import type { KindAudience } from '../model/kind.js';
import type { PlanRecipient, PlanStep, PlanWarning, StepKind } from '../model/plan.js';
import type { Directory } from '../resolve/directory.js';

/** The warning of a plan whose recipients nobody could check. */
export const RECIPIENTS_NOT_CHECKED: PlanWarning = {
  code: 'routines.recipients-not-checked',
  message: 'routine recipients were not checked against the directory: this API key cannot read users (a personal token cannot use SCIM; an organization key can)',
};

/** The steps with `recipients` on each one that adds or removes any, and the warning when they went unchecked. */
export async function classifyRecipients(
  steps: readonly PlanStep[],
  audienceOf: (kind: StepKind) => KindAudience | undefined,
  directory: Pick<Directory, 'canRead' | 'standings'>,
): Promise<{ steps: PlanStep[]; warnings: PlanWarning[] }> {
  const changes = new Map<PlanStep, ReturnType<KindAudience['changes']>>();
  for (const step of steps) {
    const found = audienceOf(step.kind)?.changes(step) ?? [];
    if (found.length > 0) changes.set(step, found);
  }
  if (changes.size === 0) return { steps: [...steps], warnings: [] };
  const emails = [...changes.values()].flat().filter((change) => change.channel === 'email').map((change) => change.recipient);
  const checked = emails.length > 0 && directory.canRead;
  const standings = checked ? await directory.standings(emails) : new Map();
  const annotated = steps.map((step): PlanStep => {
    const found = changes.get(step);
    if (found === undefined) return step;
    const recipients = found.map(({ recipient, change, channel }): PlanRecipient => {
      if (channel !== 'email') return { recipient, change, is: channel };
      if (!checked) return { recipient, change, is: 'not-checked' };
      const standing = standings.get(emailKey(recipient)) ?? { is: 'not-a-user' };
      return { recipient, change, ...standing };
    });
    return { ...step, recipients };
  });
  return { steps: annotated, warnings: emails.length > 0 && !checked ? [RECIPIENTS_NOT_CHECKED] : [] };
}
