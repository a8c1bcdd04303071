// One plan with every kind and action, shared by the rendering and executor tests.
import type { Plan } from '../../src/model/plan.js';
import { summarize } from '../../src/model/plan.js';
import { liveLabel, liveRoutine, planOffline } from './builders.js';

export function everyActionPlan(): { plan: Plan; live: Parameters<typeof planOffline>[1] } {
  const live = {
    creditControls: { accountCreditLimit: 0, creditsUsed: 0, periodStart: 0, periodEnd: 0, downgradeCredits: 8000, shutoffCredits: 10000, userDefaultCredits: 200, entityGroupDefaultCredits: null },
    userCreditLimits: new Map<string, number | null>([['u-grace', 500], ['u-ken', 100]]),
    routines: new Map([
      ['', [
        liveRoutine({ name: 'Weekly digest' }),
        liveRoutine({ name: 'Pipeline check', topicName: 'pipeline' }),
        liveRoutine({ name: 'Old experiment' }),
      ]],
    ]),
    labels: [liveLabel({ name: 'legacy-kpis', usage_count: 1 }), liveLabel({ name: 'obsolete', usage_count: 2 })],
    documentLabels: new Map([
      ['board-kpis', new Map([['d1', 'Board KPIs']])],
      ['obsolete', new Map([['d9', 'Scratchpad']])],
      ['certified', new Map<string, string>()],
    ]),
    folderLabels: {
      folders: [{ id: 'f-finance', path: 'finance', name: 'Finance' }, { id: 'f-sandbox', path: 'sandbox', name: 'Sandbox' }],
      carrying: new Map([['obsolete', new Set(['f-sandbox'])]]),
      read: true,
    },
  };
  const routine = { prompt: 'Summarise revenue.', schedule: '0 9 ? * MON *', timezone: 'UTC', modelId: 'm-sales', destination: { type: 'email' as const, recipientEmails: ['ada@acme.example'], userGroupIds: [] } };
  const { steps, warnings } = planOffline(
    {
      creditControls: { shutoffCredits: 12000, entityGroupDefaultCredits: 500 },
      userCreditLimits: [
        { email: 'ada@acme.example', creditLimit: 300 },
        { email: 'grace@acme.example', creditLimit: null },
        { email: 'ken@acme.example', creditLimit: 'default' },
      ],
      routines: [
        { ...routine, name: 'Weekly digest', schedule: '0 8 ? * MON *' },
        { ...routine, name: 'Pipeline check', topicName: 'orders' },
        { ...routine, name: 'Monthly recap', destination: { type: 'slack', recipientId: 'U0MARKETING', slackRecipientType: 'users' } },
      ],
      labels: [
        { name: 'board-kpis', renamedFrom: ['legacy-kpis'], documents: ['d1'] },
        { name: 'certified', color: '#2da44e', verified: true, documents: ['d1'], folders: ['finance'] },
      ],
      prune: { routines: true, labels: true },
    },
    live,
  );
  const plan: Plan = {
    formatVersion: 1,
    stewardVersion: '0.0.0-test',
    environment: 'production',
    baseUrl: 'https://acme.example.com',
    configDigest: 'sha256:test',
    createdAt: '2026-11-22T00:00:00.000Z',
    kinds: ['creditControls', 'userCreditLimits', 'routines', 'labels', 'documentLabels', 'folderLabels'],
    steps,
    summary: summarize(steps),
    warnings,
    requests: 9,
  };
  return { plan, live };
}
