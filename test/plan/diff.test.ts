import type { StewardError } from '../../src/errors.js';
import { describe, expect, it } from 'vitest';
import type { RoutineConfig } from '../../src/config/types.js';
import { ENVIRONMENT, liveLabel, liveRoutine, planOffline } from './builders.js';

const summary = (steps: { action: string; id: string }[]) => steps.map((step) => `${step.action} ${step.id}`);

const CONTROLS = { accountCreditLimit: 0, creditsUsed: 0, periodStart: 0, periodEnd: 0 };

describe('credit controls', () => {
  it('updates only the declared fields that differ, in one step', () => {
    const { steps } = planOffline(
      { creditControls: { shutoffCredits: 12000, downgradeCredits: 8000 } },
      { creditControls: { ...CONTROLS, downgradeCredits: 8000, shutoffCredits: 10000, userDefaultCredits: 5, entityGroupDefaultCredits: null } },
    );
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ action: 'update', before: { shutoffCredits: 10000 }, after: { shutoffCredits: 12000 } });
  });

  it('refuses a plan whose merged thresholds the server would reject', () => {
    expect(() =>
      planOffline(
        { creditControls: { downgradeCredits: 900 } },
        { creditControls: { ...CONTROLS, downgradeCredits: 100, shutoffCredits: 500, userDefaultCredits: null, entityGroupDefaultCredits: null } },
      ),
    ).toThrow('downgradeCredits 900 (in the config) would exceed shutoffCredits 500 (live; the config leaves it out)');
  });

  it('plans nothing when live already matches, including null = off', () => {
    const { steps } = planOffline(
      { creditControls: { shutoffCredits: null } },
      { creditControls: { ...CONTROLS, downgradeCredits: null, shutoffCredits: null, userDefaultCredits: null, entityGroupDefaultCredits: null } },
    );
    expect(steps).toEqual([]);
  });
});

describe('user credit limits', () => {
  const live = new Map<string, number | null>([
    ['u-grace', 500],
    ['u-ken', 100],
    ['u-linus', null],
  ]);

  it('creates, changes, tells explicit unlimited from the default, and resets to the default', () => {
    const { steps } = planOffline(
      {
        userCreditLimits: [
          { email: 'ada@acme.example', creditLimit: null },
          { email: 'GRACE@acme.example', creditLimit: 750 },
          { email: 'ken@acme.example', creditLimit: 'default' },
          { userId: 'u-linus', creditLimit: null },
        ],
      },
      { userCreditLimits: live },
    );
    expect(summary(steps)).toEqual(['create userCreditLimits/u-ada', 'update userCreditLimits/u-grace', 'delete userCreditLimits/u-ken']);
    expect(steps[0]).toMatchObject({ key: 'ada@acme.example', after: { creditLimit: null } });
    expect(steps[2]).toMatchObject({ before: { creditLimit: 100 }, reason: 'reset to the default limit' });
  });

  it('prunes undeclared limits only when asked, and never protected ones', () => {
    const declared = { userCreditLimits: [{ email: 'grace@acme.example', creditLimit: 500 }] };
    expect(planOffline(declared, { userCreditLimits: live }).steps).toEqual([]);
    const pruned = planOffline({ ...declared, prune: { userCreditLimits: true } }, { userCreditLimits: live }, {
      baseUrl: 'http://127.0.0.1:1',
      tokenEnv: 'TOKEN',
      protect: { userCreditLimits: ['linus@acme.example'] },
    });
    expect(summary(pruned.steps)).toEqual(['delete userCreditLimits/u-ken']);
  });
});

describe('routines', () => {
  const digest: RoutineConfig = {
    name: 'Weekly digest',
    prompt: 'Summarise revenue.',
    schedule: '0 9 ? * MON *',
    timezone: 'UTC',
    modelId: 'm-sales',
    destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
  };
  const own = (routines: ReturnType<typeof liveRoutine>[]) => ({ routines: new Map([['', routines]]) });

  it('ignores server-managed fields and recipient order', () => {
    const live = liveRoutine({
      name: 'Weekly digest',
      lastRun: { completedAt: '2026-11-01T09:00:00Z', label: 'ok', state: 'COMPLETED' },
      recipientCount: 7,
      updatedAt: '2026-11-02T00:00:00Z',
      destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
    });
    const config = { ...digest, destination: { type: 'email' as const, recipientEmails: ['ADA@acme.example'], userGroupIds: [] } };
    expect(planOffline({ routines: [config] }, own([live])).steps).toEqual([]);
  });

  it('updates changed fields in place and shows only them', () => {
    const { steps } = planOffline({ routines: [{ ...digest, schedule: '0 8 ? * MON *', paused: true }] }, own([liveRoutine({ name: 'Weekly digest' })]));
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ action: 'update', ref: { routineId: 'r-weekly-digest' } });
    expect(steps[0]!.action === 'update' && steps[0]!.fields).toEqual([
      { path: 'schedule', before: '0 9 ? * MON *', after: '0 8 ? * MON *' },
      { path: 'paused', before: false, after: true },
    ]);
  });

  const REPLACED = 'cannot change in place by the documented PUT';

  it('replaces a routine whose branch, topic, timezone or destination changes: the documented PUT carries none of them', () => {
    const { steps } = planOffline({ routines: [{ ...digest, topicName: 'orders' }] }, own([liveRoutine({ name: 'Weekly digest', topicName: 'pipeline' })]));
    expect(steps[0]).toMatchObject({ action: 'replace', reason: `topicName ${REPLACED}` });
    const moved = planOffline(
      { routines: [{ ...digest, timezone: 'Europe/Berlin', destination: { type: 'email', recipientEmails: ['ada@acme.example', 'grace@acme.example'], userGroupIds: [] } }] },
      own([liveRoutine({ name: 'Weekly digest' })]),
    );
    expect(moved.steps[0]).toMatchObject({ action: 'replace', reason: `timezone, destination ${REPLACED}` });
  });

  it('changes the model in place by PUT, unless a branch or topic is declared, which the new model would not keep', () => {
    expect(planOffline({ routines: [{ ...digest, modelId: 'm-other' }] }, own([liveRoutine({ name: 'Weekly digest' })])).steps[0]).toMatchObject({ action: 'update' });
    const withTopic = planOffline({ routines: [{ ...digest, modelId: 'm-other', topicName: 'orders' }] }, own([liveRoutine({ name: 'Weekly digest', topicName: 'orders' })]));
    expect(withTopic.steps[0]).toMatchObject({ action: 'replace', reason: `modelId ${REPLACED}` });
  });

  it('changes timezone and destination in place where the environment says the server has PATCH, and marks the step for it', () => {
    const environment = { ...ENVIRONMENT, routineUpdate: 'patch' as const };
    const { steps } = planOffline({ routines: [{ ...digest, timezone: 'Europe/Berlin', prompt: 'New prompt.' }] }, own([liveRoutine({ name: 'Weekly digest' })]), environment);
    expect(steps[0]).toMatchObject({ action: 'update', ref: { routineId: 'r-weekly-digest', update: 'patch' } });
    const branch = planOffline({ routines: [{ ...digest, branchId: 'b-2' }] }, own([liveRoutine({ name: 'Weekly digest', branchId: 'b-1' })]), environment);
    expect(branch.steps[0]).toMatchObject({ action: 'replace', reason: 'branchId cannot change in place by PATCH or PUT' });
  });

  it('refuses to replace a protected routine, saying what a replacement costs, and pointing at the field that replaces it, then its flag', () => {
    const refusal = (config: Parameters<typeof planOffline>[0]) => {
      try {
        planOffline(config, own([liveRoutine({ name: 'Weekly digest' })]));
      } catch (error) {
        return error as StewardError;
      }
      throw new Error('the plan was not refused');
    };
    const topic = refusal({ routines: [{ ...digest, topicName: 'orders', protect: true }] });
    expect(topic.message).toContain(`routine "Weekly digest" is protected, but changing topicName replaces it: topicName ${REPLACED}. A replaced routine is created anew and the old one deleted: its run history is lost`);
    expect(topic.hint).toBe('keep topicName as it is live, or remove `protect: true` from the routine if the replacement is intended');
    expect(topic.details?.configPaths).toEqual([['routines', 0, 'topicName'], ['routines', 0, 'protect']]);
    // A timezone change would go in place on a server with PATCH: the hint says so.
    const timezone = refusal({ routines: [{ ...digest, timezone: 'Europe/Berlin', protect: true }] });
    expect(timezone.hint).toBe('keep timezone as it is live, or remove `protect: true` from the routine if the replacement is intended; a server with the PATCH update changes it in place (`routineUpdate: patch` on the environment)');
  });

  it('says once what replacing costs, in a plan that replaces any routine', () => {
    const { warnings } = planOffline({ routines: [{ ...digest, topicName: 'orders' }, { ...digest, name: 'Other', topicName: 'orders' }] }, own([liveRoutine({ name: 'Weekly digest' }), liveRoutine({ name: 'Other' })]));
    expect(warnings).toEqual([{ code: 'routines.replacement', message: expect.stringContaining('its run history is lost, and the new one counts toward its owner\'s active routines') }]);
    expect(planOffline({ routines: [digest] }, own([liveRoutine({ name: 'Weekly digest' })])).warnings).toEqual([]);
  });

  it('reports two live routines of one name instead of picking one', () => {
    const twins = [liveRoutine({ name: 'Weekly digest', id: 'r-1', prompt: 'a' }), liveRoutine({ name: 'Weekly digest', id: 'r-2', prompt: 'b' })];
    expect(() => planOffline({ routines: [digest] }, own(twins))).toThrow(/2 live routines .* are named "Weekly digest" \(ids r-1, r-2\)/);
  });

  it('finishes an interrupted replacement: the namesake that already matches stays, the other goes', () => {
    const twins = [liveRoutine({ name: 'Weekly digest', id: 'r-old', topicName: 'pipeline' }), liveRoutine({ name: 'Weekly digest', id: 'r-new', topicName: 'orders' })];
    const { steps } = planOffline({ routines: [{ ...digest, topicName: 'orders' }] }, own(twins));
    expect(summary(steps)).toEqual(['delete routines//Weekly digest#r-old']);
  });

  it('never takes a namesake that differs in anything but model, branch or topic for a leftover', () => {
    // A colleague's routine of the same name, on the same model: an ambiguity, whatever prune says.
    const twins = [liveRoutine({ name: 'Weekly digest', id: 'r-mine' }), liveRoutine({ name: 'Weekly digest', id: 'r-theirs', prompt: 'dup' })];
    expect(() => planOffline({ routines: [digest], prune: { routines: true } }, own(twins))).toThrow(/2 live routines .* "Weekly digest"/);
  });

  it('does not delete a leftover of a protected routine, and says why it stops', () => {
    const twins = [liveRoutine({ name: 'Weekly digest', id: 'r-old', topicName: 'pipeline' }), liveRoutine({ name: 'Weekly digest', id: 'r-new', topicName: 'orders' })];
    expect(() => planOffline({ routines: [{ ...digest, topicName: 'orders', protect: true }] }, own(twins))).toThrow('will not pick one');
  });

  it('deletes undeclared routines only with prune on, and keeps protected names', () => {
    const live = own([liveRoutine({ name: 'Weekly digest' }), liveRoutine({ name: 'Old experiment' }), liveRoutine({ name: 'Keep me' })]);
    expect(planOffline({ routines: [digest] }, live).steps).toEqual([]);
    const { steps } = planOffline({ routines: [digest], prune: { routines: true } }, live, {
      baseUrl: 'http://127.0.0.1:1',
      tokenEnv: 'TOKEN',
      protect: { routines: ['Keep me'] },
    });
    expect(summary(steps)).toEqual(['delete routines//Old experiment']);
  });

  it('creates a missing routine with every declared field', () => {
    const { steps } = planOffline({ routines: [digest] }, own([]));
    expect(steps[0]).toMatchObject({ action: 'create', after: { name: 'Weekly digest', paused: false, modelId: 'm-sales' } });
  });
});

describe('labels and document labels', () => {
  const docs = (entries: Record<string, string[]>) =>
    new Map(Object.entries(entries).map(([label, identifiers]) => [label, new Map(identifiers.map((id) => [id, `Doc ${id}`]))]));

  it('renames a label declared with renamedFrom, so its documents keep it', () => {
    const { steps } = planOffline(
      { labels: [{ name: 'board-kpis', renamedFrom: ['legacy-kpis'], documents: ['d1'] }] },
      { labels: [liveLabel({ name: 'legacy-kpis', usage_count: 1 })], documentLabels: docs({ 'board-kpis': ['d1'] }) },
    );
    expect(summary(steps)).toEqual(['update labels/board-kpis']);
    expect(steps[0]).toMatchObject({ ref: { liveName: 'legacy-kpis' }, before: { name: 'legacy-kpis' }, after: { name: 'board-kpis' } });
  });

  it('matches names case-insensitively and manages only declared fields', () => {
    const { steps } = planOffline({ labels: [{ name: 'finance', color: '#000000' }] }, { labels: [liveLabel({ name: 'finance', color: '#ffffff', verified: true })] });
    expect(steps[0]).toMatchObject({ action: 'update', fields: [{ path: 'color', before: '#ffffff', after: '#000000' }] });
  });

  it('creates a label before linking it, and unlinks a pruned label before deleting it', () => {
    const { steps } = planOffline(
      { labels: [{ name: 'certified', verified: true, documents: ['d1'] }], prune: { labels: true } },
      { labels: [liveLabel({ name: 'obsolete', usage_count: 1 })], documentLabels: docs({ obsolete: ['d9'] }) },
    );
    expect(summary(steps)).toEqual([
      'create labels/certified',
      'create documentLabels/d1/certified',
      'delete documentLabels/d9/obsolete',
      'delete labels/obsolete',
    ]);
    expect(steps[1]!.dependsOn).toEqual(['labels/certified']);
    expect(steps[3]!.dependsOn).toEqual(['documentLabels/d9/obsolete']);
  });

  it('takes a label off unlisted documents only with pruneDocuments', () => {
    const live = { labels: [liveLabel({ name: 'draft', usage_count: 2 })], documentLabels: docs({ draft: ['d1', 'd2'] }) };
    expect(planOffline({ labels: [{ name: 'draft', documents: ['d1'] }] }, live).steps).toEqual([]);
    expect(summary(planOffline({ labels: [{ name: 'draft', documents: ['d1'], pruneDocuments: true }] }, live).steps)).toEqual([
      'delete documentLabels/d2/draft',
    ]);
  });

  it('never deletes a protected label', () => {
    const { steps } = planOffline({ labels: [], prune: { labels: true } }, { labels: [liveLabel({ name: 'Keep' })], documentLabels: new Map() }, {
      baseUrl: 'http://127.0.0.1:1',
      tokenEnv: 'TOKEN',
      protect: { labels: ['keep'] },
    });
    expect(steps).toEqual([]);
  });
});

describe('ignored fields', () => {
  it('creates a limit with its value, then never changes or resets it, per object or for the kind', () => {
    const live = new Map<string, number | null>([['u-grace', 500], ['u-ken', 100]]);
    const { steps } = planOffline(
      {
        userCreditLimits: [
          { email: 'ada@acme.example', creditLimit: 50, ignore: ['creditLimit'] },
          { email: 'grace@acme.example', creditLimit: 750, ignore: ['creditLimit'] },
          { email: 'ken@acme.example', creditLimit: 'default' },
        ],
        userGroupCreditLimits: [{ userGroupId: 'g-finance', creditLimit: 10 }],
        ignore: { userCreditLimits: [], userGroupCreditLimits: ['creditLimit'] },
      },
      { userCreditLimits: live, userGroupCreditLimits: { limits: new Map([['g-finance', 20]]), names: new Map() } },
    );
    expect(summary(steps)).toEqual(['create userCreditLimits/u-ada', 'delete userCreditLimits/u-ken']);
    expect(steps[0]).toMatchObject({ after: { creditLimit: 50 }, ignore: ['creditLimit'] });
  });

  it('sends a label only the fields it does not ignore, and says which differ', () => {
    const { steps } = planOffline(
      { labels: [{ name: 'Finance', color: '#ff0000', description: 'Money', ignore: ['color'] }] },
      { labels: [liveLabel({ name: 'Finance', color: '#00ff00', description: 'Old' })] },
    );
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      action: 'update',
      fields: [{ path: 'description', before: 'Old', after: 'Money' }],
      ignore: ['color'],
      ignored: [{ path: 'color', before: '#00ff00', after: '#ff0000' }],
    });
  });

  it('plans nothing for a label whose only difference is ignored', () => {
    const { steps } = planOffline(
      { labels: [{ name: 'Finance', color: '#ff0000' }], ignore: { labels: ['color'] } },
      { labels: [liveLabel({ name: 'Finance', color: '#00ff00' })] },
    );
    expect(steps).toEqual([]);
  });
});
