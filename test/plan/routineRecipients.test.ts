// The recipients a routine step adds and removes, read off its destination before and after.
import { describe, expect, it } from 'vitest';
import { routineRecipientChanges } from '../../src/kinds/routines/routineRecipients.js';
import type { PlanStep } from '../../src/model/plan.js';

const base = { id: 'routines//Digest', kind: 'routines' as const, key: 'Digest', dependsOn: [], ref: {} };
const mail = (recipientEmails: string[], userGroupIds: string[] = []) => ({ destination: { type: 'email' as const, recipientEmails, userGroupIds } });
const slack = (recipientId: string, slackRecipientType: 'channel' | 'users') => ({ destination: { type: 'slack' as const, recipientId, slackRecipientType } });
const update = (before: object, after: object): PlanStep<'routines'> => ({ ...base, action: 'update', before: { ...before }, after: { ...after }, fields: [] });

describe('routine recipient changes', () => {
  it('a new routine adds all of its recipients; a deleted one is not concerned', () => {
    expect(routineRecipientChanges({ ...base, action: 'create', after: mail(['a@acme.example'], ['g1']) })).toEqual([
      { recipient: 'a@acme.example', channel: 'email', change: 'added' },
      { recipient: 'g1', channel: 'user-group', change: 'added' },
    ]);
    expect(routineRecipientChanges({ ...base, action: 'delete', before: mail(['a@acme.example']) })).toEqual([]);
  });

  it('an update lists only the difference, e-mails compared without case', () => {
    expect(routineRecipientChanges(update(mail(['a@acme.example', 'b@acme.example']), mail(['A@acme.example', 'c@acme.example'])))).toEqual([
      { recipient: 'c@acme.example', channel: 'email', change: 'added' },
      { recipient: 'b@acme.example', channel: 'email', change: 'removed' },
    ]);
    expect(routineRecipientChanges(update({ ...mail(['a@acme.example']), paused: false }, { ...mail(['a@acme.example']), paused: true }))).toEqual([]);
  });

  it('from e-mail to Slack: every e-mail removed, the channel or user added', () => {
    expect(routineRecipientChanges(update(mail(['a@acme.example']), slack('U1', 'users')))).toEqual([
      { recipient: 'U1', channel: 'slack-user', change: 'added' },
      { recipient: 'a@acme.example', channel: 'email', change: 'removed' },
    ]);
    expect(routineRecipientChanges(update(slack('U1', 'users'), slack('C1', 'channel')))).toEqual([
      { recipient: 'C1', channel: 'slack-channel', change: 'added' },
      { recipient: 'U1', channel: 'slack-user', change: 'removed' },
    ]);
  });
});
