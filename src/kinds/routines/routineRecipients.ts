// Who a routine's output reaches: the recipients a step adds and removes, read off its destination
// before and after (a new routine adds all of its own). E-mails are looked up by the planner
// (engine/recipients.ts); user groups and Slack ids are what their destination says they are.
import type { AudienceChange } from '../../model/kind.js';
import type { PlanStep } from '../../model/plan.js';

type Recipient = Omit<AudienceChange, 'change'>;

/** The recipients a routine step adds and removes, added first; none for a delete or an unchanged destination. Pure. */
export function routineRecipientChanges(step: PlanStep<'routines'>): AudienceChange[] {
  if (step.action === 'delete') return [];
  const after = recipientsOf(step.after.destination);
  const before = step.action === 'create' ? [] : recipientsOf(step.before.destination);
  const key = (recipient: Recipient) => `${recipient.channel}\0${recipient.recipient.toLowerCase()}`;
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  return [
    ...after.filter((recipient) => !had.has(key(recipient))).map((recipient): AudienceChange => ({ ...recipient, change: 'added' })),
    ...before.filter((recipient) => !has.has(key(recipient))).map((recipient): AudienceChange => ({ ...recipient, change: 'removed' })),
  ];
}

/** The recipients of a destination as a step holds it (plain data: a saved plan's may be anything). */
function recipientsOf(destination: unknown): Recipient[] {
  if (destination === null || typeof destination !== 'object') return [];
  const { type, recipientEmails, userGroupIds, recipientId, slackRecipientType } = destination as Record<string, unknown>;
  const texts = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
  if (type === 'email') {
    return [
      ...texts(recipientEmails).map((email): Recipient => ({ recipient: email, channel: 'email' })),
      ...texts(userGroupIds).map((id): Recipient => ({ recipient: id, channel: 'user-group' })),
    ];
  }
  if (type === 'slack' && typeof recipientId === 'string') {
    return [{ recipient: recipientId, channel: slackRecipientType === 'users' ? 'slack-user' : 'slack-channel' }];
  }
  return [];
}
