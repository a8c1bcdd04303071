// The built-in datasets: `demo` (plays the production deployment, the default) and
// `demo-playground` (the playground deployment). Same organization, e-mails, documents and
// labels, but different ids for users, models and groups, so steward must map by name and
// e-mail, never by id. Whether documents keep their identifiers across deployments is OPEN
// (gaps.md): with `documentIdentifiers: 'per-deployment'` the playground's documents have
// identifiers of their own. The tokens are well-known local demo values, not secrets.
import type { DocumentIdentifiers } from './profiles.js';
import type { Seed, SeedApiToken, SeedRoutine, SeedUser } from './seedTypes.js';

export const DATASET_NAMES = ['demo', 'demo-playground'] as const;
export type DatasetName = (typeof DATASET_NAMES)[number];

interface DatasetIds {
  organization: string;
  /** First 24 hex digits (with dashes) of user ids; the last 12 number the user. */
  userPrefix: string;
  models: { sales: string; marketing: string };
  salesBranch: string;
  groups: { finance: string; salesOps: string; analysts: string };
  tokenPrefix: 'demo' | 'playground';
}

const IDS: Record<DatasetName, DatasetIds> = {
  demo: {
    organization: '0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d',
    userPrefix: '3f1c9a7e-5b2d-4e8f-9a6c-',
    models: { sales: '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30', marketing: 'a3d9c1e7-2f4b-4e8a-b6c5-0d1e2f3a4b5c' },
    salesBranch: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    groups: { finance: 'fin7q2k', salesOps: 'ops3m8x', analysts: 'ana4r6d' },
    tokenPrefix: 'demo',
  },
  'demo-playground': {
    organization: '9e8d7c6b-5a49-4382-a716-05f4e3d2c1b0',
    userPrefix: '8d4e2b6f-1c3a-4f7d-b5e9-',
    models: { sales: 'c7e2b4a1-9d3f-4a6b-8e1c-2f5d7a9b0c3e', marketing: 'e4f6a8b0-1c3d-4e5f-9a7b-6c8d0e2f4a61' },
    salesBranch: '6e5d4c3b-2a19-4807-b6f5-e4d3c2b1a090',
    groups: { finance: 'fin9w4c', salesOps: 'ops5t1z', analysts: 'ana8v2h' },
    tokenPrefix: 'playground',
  },
};

const NAMED_USERS: [string, string, SeedUser['role']][] = [
  ['ada', 'Ada Lovelace', 'ORG_ADMIN'],
  ['grace', 'Grace Hopper', 'MEMBER'],
  ['linus', 'Linus Torvalds', 'MEMBER'],
  ['margaret', 'Margaret Hamilton', 'MEMBER'],
  ['ken', 'Ken Thompson', 'MEMBER'],
  ['barbara', 'Barbara Liskov', 'MEMBER'],
];
const ANALYSTS = 30;
const GENERATED_DOCUMENTS = 120;
const email = (local: string) => `${local}@acme.example`;
const two = (n: number) => String(n).padStart(2, '0');

function users(ids: DatasetIds): SeedUser[] {
  const named = NAMED_USERS.map(([local, displayName, role], index): SeedUser => ({
    id: `${ids.userPrefix}1d0e2f3a4b${two(index + 1)}`,
    email: email(local),
    displayName,
    role,
  }));
  const analysts = Array.from({ length: ANALYSTS }, (_, index): SeedUser => ({
    id: `${ids.userPrefix}2a00000000${two(index + 1)}`,
    email: email(`analyst${two(index + 1)}`),
    displayName: `Analyst ${two(index + 1)}`,
    role: 'MEMBER',
  }));
  return [...named, ...analysts];
}

function routines(ids: DatasetIds): SeedRoutine[] {
  return [
    {
      owner: email('ada'),
      name: 'Weekly revenue digest',
      prompt: "Summarise last week's revenue by region and call out anomalies.",
      schedule: '0 9 ? * MON *',
      timezone: 'Europe/Berlin',
      modelId: ids.models.sales,
      topicName: 'orders',
      description: null,
      destination: { type: 'email', recipientEmails: [email('ada'), email('grace')], userGroupIds: [] },
      createdAt: '2025-02-03T08:00:00.000Z',
    },
    {
      owner: email('ada'),
      name: 'Daily pipeline check',
      prompt: 'List deals that moved stage yesterday.',
      schedule: '0 8 ? * MON-FRI *',
      timezone: 'America/New_York',
      modelId: ids.models.sales,
      topicName: 'pipeline',
      destination: { type: 'slack', recipientId: 'C0PIPELINE1', slackRecipientType: 'channel' },
      createdAt: '2025-02-10T08:00:00.000Z',
    },
    {
      owner: email('ada'),
      name: 'Old experiment',
      prompt: 'Compare campaign spend month over month.',
      schedule: '0 6 1 * ? *',
      timezone: 'UTC',
      modelId: ids.models.marketing,
      topicName: 'campaigns',
      destination: { type: 'email', recipientEmails: [email('ada')], userGroupIds: [] },
      disabled: true,
      createdAt: '2024-11-04T08:00:00.000Z',
    },
    {
      owner: email('grace'),
      name: "Grace's weekly KPIs",
      prompt: "Summarise this week's KPIs.",
      schedule: '0 7 ? * FRI *',
      timezone: 'UTC',
      modelId: ids.models.sales,
      topicName: 'orders',
      destination: { type: 'email', recipientEmails: [email('grace')], userGroupIds: [] },
      createdAt: '2025-03-07T08:00:00.000Z',
    },
  ];
}

/** The demo tokens of a dataset: value, name and what they are (well-known, local only). */
export function datasetTokens(name: DatasetName): (SeedApiToken & { summary: string })[] {
  const prefix = IDS[name].tokenPrefix;
  return [
    { token: `${prefix}-org-admin-token`, name: 'Organization admin key', type: 'organization', role: 'ORG_ADMIN', owner: email('ada'), createdAt: '2025-01-02T10:00:00.000Z', summary: 'organization key, ORG_ADMIN' },
    { token: `${prefix}-org-member-token`, name: 'Organization member key', type: 'organization', role: 'MEMBER', owner: email('ada'), createdAt: '2025-01-03T10:00:00.000Z', summary: 'organization key, MEMBER' },
    { token: `${prefix}-ada-personal-token`, name: "Ada's personal token", type: 'personal', owner: email('ada'), createdAt: '2025-01-04T10:00:00.000Z', summary: 'personal token of ada@acme.example (ORG_ADMIN)' },
    { token: `${prefix}-grace-personal-token`, name: "Grace's personal token", type: 'personal', owner: email('grace'), createdAt: '2025-01-05T10:00:00.000Z', summary: 'personal token of grace@acme.example (MEMBER)' },
  ];
}

/**
 * A document's identifier in dataset `name`: demo's own, or, for the playground with identifiers
 * per deployment, another one (hex digits reversed, `r0001` → `p0001`) that demo does not have.
 */
export function datasetDocumentIdentifier(name: DatasetName, demoIdentifier: string, documentIdentifiers: DocumentIdentifiers = 'shared'): string {
  if (name === 'demo' || documentIdentifiers === 'shared') return demoIdentifier;
  return /^r\d+$/.test(demoIdentifier) ? `p${demoIdentifier.slice(1)}` : [...demoIdentifier].reverse().join('');
}

/** The seed of a built-in dataset (a fresh object each call). */
export function datasetSeed(name: DatasetName, documentIdentifiers: DocumentIdentifiers = 'shared'): Seed {
  const ids = IDS[name];
  const identifier = (demoIdentifier: string) => datasetDocumentIdentifier(name, demoIdentifier, documentIdentifiers);
  const namedDocuments: [string, string, string[]][] = [
    ['8f2e1d4c', 'Revenue overview', ['finance']],
    ['3a9b7c6d', 'Pipeline by region', []],
    ['5e4d3c2b', 'Marketing funnel', ['marketing']],
    ['7c6b5a49', 'Churn analysis', []],
    ['9d8e7f60', 'Board KPIs', ['finance', 'legacy-kpis']],
    ['1b2c3d4e', 'Scratchpad (old)', ['draft']],
  ];
  const generated = Array.from({ length: GENERATED_DOCUMENTS }, (_, index) => {
    const number = String(index + 1).padStart(4, '0');
    return { identifier: `r${number}`, name: `Report ${number}`, hasDashboard: false };
  });
  return {
    organization: { id: ids.organization, name: 'Acme Analytics' },
    users: users(ids),
    groups: [
      { id: ids.groups.finance, displayName: 'Finance', members: [email('ada'), email('grace')] },
      { id: ids.groups.salesOps, displayName: 'Sales Ops', members: [email('linus'), email('ken')] },
      { id: ids.groups.analysts, displayName: 'Analysts', members: Array.from({ length: ANALYSTS }, (_, index) => email(`analyst${two(index + 1)}`)) },
    ],
    models: [
      {
        id: ids.models.sales,
        name: 'Sales',
        defaultRole: 'QUERIER',
        roles: { [email('ada')]: 'MANAGER' },
        topics: ['orders', 'pipeline'],
        branches: [{ id: ids.salesBranch, name: 'forecast-v2' }],
      },
      {
        id: ids.models.marketing,
        name: 'Marketing',
        defaultRole: 'QUERIER',
        roles: { [email('ada')]: 'MANAGER' },
        // A custom role name, as organizations give them: whoami reports it beside the base role.
        roleNames: { QUERIER: 'Campaign analyst' },
        topics: ['campaigns'],
      },
    ],
    labels: [
      { name: 'finance', color: '#0366d6', description: 'Finance-owned content', verified: true, homepage: true },
      { name: 'marketing', color: '#d73a4a', description: null, verified: false, homepage: false },
      { name: 'legacy-kpis', color: '#6f42c1', description: 'KPIs shown to the board', verified: false, homepage: false },
      { name: 'draft', color: null, description: null, verified: false, homepage: false },
      { name: 'obsolete', color: '#cccccc', description: 'No longer used', verified: false, homepage: false },
    ],
    // Labels sit on folders as on documents (each counts in the label's usage); paths are the same in both deployments.
    folders: [
      { name: 'Finance', path: 'finance', labels: ['finance'] },
      { name: 'Board packs', path: 'finance/board-packs', labels: ['legacy-kpis'] },
      { name: 'Marketing', path: 'marketing' },
      { name: 'Sandbox', path: 'sandbox', labels: ['draft'] },
    ],
    documents: [
      ...namedDocuments.map(([demoIdentifier, documentName, labels]) => ({
        identifier: identifier(demoIdentifier),
        name: documentName,
        labels,
        owner: email('ada'),
      })),
      ...generated.map((document) => ({ ...document, identifier: identifier(document.identifier) })),
    ],
    routines: routines(ids),
    creditControls: {
      downgradeCredits: 8000,
      shutoffCredits: 10000,
      userDefaultCredits: 200,
      entityGroupDefaultCredits: null,
      accountCreditLimit: 12000,
      creditsUsed: 3120.5,
    },
    userCreditLimits: [
      { user: email('grace'), creditLimit: 500 },
      { user: email('linus'), creditLimit: null },
      { user: email('ken'), creditLimit: 100 },
      { user: email('analyst01'), creditLimit: 50 },
    ],
    userGroupCreditLimits: [
      { group: ids.groups.salesOps, creditLimit: 400 },
      { group: ids.groups.analysts, creditLimit: 100 },
    ],
    entityGroups: ['embed-partners', 'embed-resellers', 'embed-trial'],
    entityGroupCreditLimits: [
      { entity: 'embed-partners', creditLimit: 1000 },
      { entity: 'embed-trial', creditLimit: 50 },
    ],
    apiTokens: datasetTokens(name).map(({ summary: _summary, ...token }) => token),
  };
}
