// Live state → configuration: each kind's mapping, and the property export relies on: the
// mapped sections, planned against the state they came from, plan nothing.
import { describe, expect, it } from 'vitest';
import type { CreditControls } from '../../src/api/types.js';
import { toConfigSections } from '../../src/export/mapping.js';
import type { LiveSnapshot } from '../../src/export/snapshot.js';
import type { Kind } from '../../src/config/types.js';
import { creditControlsConfig } from '../../src/kinds/creditControls/creditControls.js';
import { userCreditLimitsConfig } from '../../src/kinds/limits/userCreditLimits.js';
import { modelReference, routineConfig, routinesConfig } from '../../src/kinds/routines/routineExport.js';
import { labelKey } from '../../src/domain/rules.js';
import { liveLabel, liveRoutine, planOffline, USERS } from '../plan/builders.js';

const CONTROLS: CreditControls = {
  downgradeCredits: 8000,
  shutoffCredits: 10000,
  userDefaultCredits: 200,
  entityGroupDefaultCredits: null,
  accountCreditLimit: 12000,
  creditsUsed: 3120.5,
  periodStart: 0,
  periodEnd: 1,
};

describe('credit controls', () => {
  it('writes the settings steward manages, and nothing server-managed', () => {
    expect(creditControlsConfig(CONTROLS)).toEqual({ downgradeCredits: 8000, shutoffCredits: 10000, userDefaultCredits: 200, entityGroupDefaultCredits: null });
  });

  it('writes no entity-group default where the instance shows none (the documented seven fields)', () => {
    const { entityGroupDefaultCredits: _, ...documented } = CONTROLS;
    expect(creditControlsConfig(documented)).toEqual({ downgradeCredits: 8000, shutoffCredits: 10000, userDefaultCredits: 200 });
  });
});

describe('a routine\'s model and branch', () => {
  const models = [{ id: 'm1', name: 'Sales', modelKind: 'SHARED', baseModelId: null, connectionId: null, createdAt: '', updatedAt: '', deletedAt: null, branches: [{ id: 'b1', name: 'forecast' }, { id: 'b2', name: null }] }];

  it('names a branch by name where it has one, and by id where the vendor gives it none', () => {
    expect(modelReference('m1', 'b1', models)).toEqual({ model: 'Sales', branch: 'forecast' });
    expect(modelReference('m1', 'b2', models)).toEqual({ model: 'Sales', branchId: 'b2' });
  });
});

describe('user credit limits', () => {
  it('names users by e-mail where known, else by id, sorted, keeping null (explicit unlimited)', () => {
    const config = userCreditLimitsConfig([
      { userId: 'u-ken', email: 'ken@acme.example', creditLimit: 100 },
      { userId: 'u-unknown', email: undefined, creditLimit: 5 },
      { userId: 'u-grace', email: 'grace@acme.example', creditLimit: null },
    ]);
    expect(config).toEqual([
      { email: 'grace@acme.example', creditLimit: null },
      { email: 'ken@acme.example', creditLimit: 100 },
      { userId: 'u-unknown', creditLimit: 5 },
    ]);
  });
});

describe('routines', () => {
  it('writes every compared field, nulls included, and no server-managed one', () => {
    const live = liveRoutine({
      name: 'Weekly revenue digest',
      topicName: 'orders',
      destination: { type: 'email', recipientEmails: ['Grace@acme.example', 'ada@acme.example'], userGroupIds: ['g-2', 'g-1'] },
      lastRun: { completedAt: '2026-01-05T09:00:00.000Z', label: 'ok', state: 'SUCCESS' },
    });
    expect(routineConfig(live, 'grace@acme.example')).toEqual({
      name: 'Weekly revenue digest',
      owner: 'grace@acme.example',
      description: null,
      prompt: 'Summarise revenue.',
      schedule: '0 9 ? * MON *',
      timezone: 'UTC',
      modelId: 'm-sales',
      branchId: null,
      topicName: 'orders',
      destination: { type: 'email', recipientEmails: ['ada@acme.example', 'grace@acme.example'], userGroupIds: ['g-1', 'g-2'] },
    });
  });

  it('writes paused only when the routine is paused (its default is false), and no owner for the key\'s own', () => {
    expect(routineConfig(liveRoutine({ name: 'Old', disabled: true }), undefined)).toMatchObject({ name: 'Old', paused: true });
    expect(routineConfig(liveRoutine({ name: 'Old', disabled: true }), undefined)).not.toHaveProperty('owner');
    expect(routineConfig(liveRoutine({ name: 'New' }), undefined)).not.toHaveProperty('paused');
  });

  it('sorts by owner (the key\'s own first) and name', () => {
    const config = routinesConfig([
      { owner: undefined, routines: [liveRoutine({ name: 'b' }), liveRoutine({ name: 'a' })] },
      { owner: 'grace@acme.example', routines: [liveRoutine({ name: 'c' })] },
    ]);
    expect(config.map((routine) => `${routine.owner ?? '-'} ${routine.name}`)).toEqual(['- a', '- b', 'grace@acme.example c']);
  });

  it('refuses two routines of one name, which a configuration cannot hold', () => {
    expect(() => routinesConfig([{ owner: undefined, routines: [liveRoutine({ name: 'x', id: 'r1' }), liveRoutine({ name: 'x', id: 'r2' })] }])).toThrow(
      'two live routines are named "x" (both owned by the API key\'s user)',
    );
    expect(() =>
      routinesConfig([
        { owner: undefined, routines: [liveRoutine({ name: 'x' })] },
        { owner: 'grace@acme.example', routines: [liveRoutine({ name: 'x' })] },
      ]),
    ).toThrow('owned by the API key\'s user and by grace@acme.example');
  });
});

describe('labels', () => {
  const live = [liveLabel({ name: 'marketing', color: '#d73a4a', usage_count: 2 }), liveLabel({ name: 'Draft', verified: true })];
  const documents = new Map([['marketing', ['5e4d3c2b', '3a9b7c6d']], ['Draft', []]]);
  /** The labels section of what was read, `asked` being the kinds asked for. */
  const section = (read: LiveSnapshot['read'], asked: Kind[]) => toConfigSections({ read, asked, caller: undefined, warnings: [] }).labels;

  it('writes every field and the sorted documents of each label, sorted by name case-insensitively', () => {
    expect(section({ labels: live, documentLabels: documents }, ['labels', 'documentLabels'])).toEqual([
      { name: 'Draft', color: null, description: null, verified: true, homepage: false, documents: [] },
      { name: 'marketing', color: '#d73a4a', description: null, verified: false, homepage: false, documents: ['3a9b7c6d', '5e4d3c2b'] },
    ]);
  });

  it('writes names and documents only when label fields are not exported, and no documents when they were not read', () => {
    expect(section({ labels: live, documentLabels: documents }, ['documentLabels'])).toEqual([
      { name: 'Draft', documents: [] },
      { name: 'marketing', documents: ['3a9b7c6d', '5e4d3c2b'] },
    ]);
    expect(section({ labels: live }, ['labels'])![0]).not.toHaveProperty('documents');
  });

  it('writes documents only for the labels whose documents were read (a promotion reads those the config manages)', () => {
    expect(section({ labels: live, documentLabels: new Map([['marketing', ['5e4d3c2b']]]) }, ['documentLabels'])).toEqual([{ name: 'Draft' }, { name: 'marketing', documents: ['5e4d3c2b'] }]);
  });

  it('writes folders after documents, sorted, for the labels whose folders were read', () => {
    expect(section({ labels: live, documentLabels: documents, folderLabels: new Map([['marketing', ['sales', 'finance/board']]]) }, ['documentLabels', 'folderLabels'])).toEqual([
      { name: 'Draft', documents: [] },
      { name: 'marketing', documents: ['3a9b7c6d', '5e4d3c2b'], folders: ['finance/board', 'sales'] },
    ]);
  });
});

describe('round trip', () => {
  it('GIVEN a live state, WHEN its sections are planned against it, THEN nothing changes', () => {
    const [ada, grace, ken] = USERS as [(typeof USERS)[0], (typeof USERS)[0], (typeof USERS)[0]];
    const routines = {
      own: [liveRoutine({ name: 'Digest', topicName: 'orders', description: 'Weekly' }), liveRoutine({ name: 'Paused', disabled: true, branchId: 'b-1' })],
      grace: [liveRoutine({ name: 'KPIs', destination: { type: 'slack', recipientId: 'C0KPIS0001', slackRecipientType: 'channel' } })],
    };
    const labels = [liveLabel({ name: 'finance', color: '#0366d6', verified: true, homepage: true, usage_count: 2 }), liveLabel({ name: 'unused' })];
    const snapshot: LiveSnapshot = {
      caller: ada,
      asked: ['creditControls', 'userCreditLimits', 'routines', 'labels', 'documentLabels'],
      warnings: [],
      read: {
        creditControls: CONTROLS,
        userCreditLimits: [
          { userId: grace.id, email: grace.email, creditLimit: 500 },
          { userId: ken.id, email: undefined, creditLimit: null },
        ],
        routines: { owners: [{ owner: undefined, routines: routines.own }, { owner: grace.email, routines: routines.grace }], models: [] },
        labels,
        documentLabels: new Map([['finance', ['9d8e7f60', '8f2e1d4c']], ['unused', []]]),
      },
    };
    const live = {
      creditControls: CONTROLS,
      userCreditLimits: new Map<string, number | null>([[grace.id, 500], [ken.id, null]]),
      routines: new Map([['', routines.own], [grace.id, routines.grace]]),
      labels,
      documentLabels: new Map([[labelKey('finance'), new Map([['8f2e1d4c', 'Revenue overview'], ['9d8e7f60', 'Board KPIs']])], ['unused', new Map()]]),
    };
    const sections = toConfigSections(snapshot);
    expect(planOffline(sections, live).steps).toEqual([]);

    // The same sections notice any difference: every kind is really compared.
    const differing = {
      ...live,
      creditControls: { ...CONTROLS, shutoffCredits: 9000 },
      userCreditLimits: new Map<string, number | null>([[grace.id, 400], [ken.id, null]]),
      routines: new Map([['', routines.own], [grace.id, [{ ...routines.grace[0]!, description: 'changed' }]]]),
      labels: [{ ...labels[0]!, homepage: false }, labels[1]!],
      documentLabels: new Map([[labelKey('finance'), new Map([['8f2e1d4c', 'Revenue overview']])], ['unused', new Map()]]),
    };
    const summary = planOffline(sections, differing).steps.map((step) => `${step.action} ${step.id}`);
    expect(summary).toEqual([
      'update creditControls/settings',
      'update labels/finance',
      `update userCreditLimits/${grace.id}`,
      `update routines/${grace.id}/KPIs`,
      'create documentLabels/9d8e7f60/finance',
    ]);
  });
});
