// Builders of well-formed response bodies, as the platform sends them, for tests that serve
// responses themselves (nock or a hostile test server). Each takes overrides for the case at hand.
import type { ApiKeyRecord, CreditControls, DocumentRecord, Label, Routine, ScimGroup, ScimUser, Whoami } from '../../src/api/types.js';

export const LAST_PAGE = { hasNextPage: false, nextCursor: null, pageSize: 100 } as const;

export function whoamiBody(overrides: Partial<Whoami> = {}): Whoami {
  return {
    keyScope: 'organization',
    orgRole: 'ORG_ADMIN',
    rolesByModel: {},
    user: { id: 'user-admin', membershipId: 'member-admin' },
    ...overrides,
  };
}

export function creditControlsBody(overrides: Partial<CreditControls> = {}): CreditControls {
  return {
    accountCreditLimit: 0,
    creditsUsed: 12.5,
    downgradeCredits: null,
    shutoffCredits: null,
    userDefaultCredits: 100,
    entityGroupDefaultCredits: null,
    periodStart: Date.parse('2025-03-01T00:00:00Z'),
    periodEnd: Date.parse('2025-04-01T00:00:00Z'),
    ...overrides,
  };
}

export function routineRecord(id: string, overrides: Partial<Routine> = {}): Routine {
  return {
    id,
    name: `Routine ${id}`,
    prompt: 'Summarise last week',
    schedule: '0 9 ? * MON *',
    timezone: 'Europe/Berlin',
    modelId: '6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f',
    branchId: null,
    topicName: null,
    description: null,
    destination: { type: 'email', recipientEmails: ['ops@acme.example.com'], userGroupIds: [] },
    disabled: false,
    systemDisabled: false,
    systemDisabledReason: null,
    lastRun: null,
    recipientCount: 1,
    createdAt: '2025-03-01T09:00:00Z',
    updatedAt: '2025-03-01T09:00:00Z',
    ...overrides,
  };
}

export function labelRecord(name: string, overrides: Partial<Label> = {}): Label {
  return { name, color: null, description: null, homepage: false, verified: false, usage_count: 0, ...overrides };
}

export function documentRecord(identifier: string, overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  return {
    identifier,
    name: `Document ${identifier}`,
    connectionId: 'conn-1',
    deleted: false,
    description: null,
    folder: null,
    hasDashboard: false,
    owner: { id: 'member-admin', name: 'Ada Admin' },
    scope: 'organization',
    type: 'document',
    updatedAt: '2025-03-01T09:00:00Z',
    url: `https://acme.example.com/documents/${identifier}`,
    ...overrides,
  };
}

export function scimUser(id: string, overrides: Partial<ScimUser> = {}): ScimUser {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id,
    userName: `${id}@acme.example.com`,
    displayName: id,
    active: true,
    emails: [{ value: `${id}@acme.example.com`, primary: true }],
    groups: [],
    ...overrides,
  };
}

export function scimGroup(id: string, overrides: Partial<ScimGroup> = {}): ScimGroup {
  return { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], id, displayName: id, members: [], ...overrides };
}

export function apiKeyRecord(id: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return { id, name: `key ${id}`, type: 'personal', enabled: true, createdAt: '2025-03-01T09:00:00Z', membershipId: 'member-admin', ...overrides };
}
