// GET /api/v1/whoami as the vendor documents it: identity (a user id and a distinct membership
// id), key scope, role, per-model roles ({baseRole, roleName, connectionId, permissions}), the
// modelId filter and truncation of rolesByModel.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { permissionsOf } from '../../src/emulator/state.js';
import { Api, aSeed, DEMO, expectDetail, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();

describe('GET /api/v1/whoami', () => {
  it('describes an organization key: scope, the key role and the creating user', async () => {
    const response = await fixture.api.get('/api/v1/whoami');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      keyScope: 'organization',
      orgRole: 'ORG_ADMIN',
      rolesByModel: {
        [DEMO.models.sales]: { baseRole: 'MANAGER', roleName: 'MANAGER', connectionId: expect.any(String), permissions: permissionsOf('MANAGER') },
        [DEMO.models.marketing]: { baseRole: 'MANAGER', roleName: 'MANAGER', connectionId: expect.any(String), permissions: permissionsOf('MANAGER') },
      },
      user: { id: expect.any(String), membershipId: fixture.emulator.state.userId('ada@acme.example') },
    });
    expect(response.body.user.id).not.toBe(response.body.user.membershipId);
    expect(permissionsOf('MANAGER')).toEqual(expect.arrayContaining(['USE_AI', 'UPDATE']));
  });

  it('gives a MEMBER-role organization key its own role', async () => {
    const response = await fixture.api.as(TOKENS.orgMember).get('/api/v1/whoami');
    expect(response.body).toMatchObject({ keyScope: 'organization', orgRole: 'MEMBER' });
  });

  it('describes a personal token with its user and the user roles', async () => {
    const response = await fixture.api.as(TOKENS.gracePersonal).get('/api/v1/whoami');
    expect(response.body).toMatchObject({
      keyScope: 'user',
      orgRole: 'MEMBER',
      rolesByModel: { [DEMO.models.sales]: { baseRole: 'QUERIER', roleName: 'QUERIER', permissions: permissionsOf('QUERIER') } },
      user: { membershipId: fixture.emulator.state.userId('grace@acme.example') },
    });
    expect(permissionsOf('QUERIER')).toContain('USE_AI');
    expect(permissionsOf('VIEWER')).not.toContain('USE_AI');
    expect(response.body.rolesByModelTruncated).toBeUndefined();
  });

  it('filters rolesByModel by a comma-separated modelId list', async () => {
    const one = await fixture.api.get('/api/v1/whoami', { modelId: DEMO.models.sales });
    expect(Object.keys(one.body.rolesByModel)).toEqual([DEMO.models.sales]);
    const both = await fixture.api.get('/api/v1/whoami', { modelId: `${DEMO.models.sales},${DEMO.models.marketing}` });
    expect(Object.keys(both.body.rolesByModel).sort()).toEqual([DEMO.models.sales, DEMO.models.marketing].sort());
  });

  it('reports a seeded custom role name as roleName, beside its base role', async () => {
    const seeded = await startEmulator({
      data: aSeed({ models: [{ id: '33333333-3333-4333-8333-333333333333', name: 'Core', defaultRole: 'QUERIER', roleNames: { QUERIER: 'Analyst (custom)' } }] }),
    });
    try {
      const whoami = await new Api(seeded.url, 'tiny-org-admin').get('/api/v1/whoami');
      expect(whoami.body.rolesByModel['33333333-3333-4333-8333-333333333333']).toMatchObject({ baseRole: 'QUERIER', roleName: 'Analyst (custom)' });
    } finally {
      await seeded.close();
    }
  });

  it('answers 404 when any requested model does not exist', async () => {
    const response = await fixture.api.get('/api/v1/whoami', { modelId: `${DEMO.models.sales},${DEMO.unknownUuid}` });
    expectDetail(response, 404, `Model not found: ${DEMO.unknownUuid}`);
  });

  it('answers 404 for a model the caller cannot access, and truncates past the model limit', async () => {
    const restricted = '44444444-4444-4444-8444-444444444444';
    const seeded = await startEmulator({
      data: aSeed({
        organization: { name: 'Tiny Co', whoamiModelLimit: 1 },
        models: [
          { id: '33333333-3333-4333-8333-333333333333', name: 'Core', defaultRole: 'QUERIER' },
          { id: restricted, name: 'Secret', roles: { 'ada@tiny.example': 'MANAGER' } },
        ],
      }),
    });
    try {
      const bob = new Api(seeded.url, 'tiny-bob-personal');
      expectDetail(await bob.get('/api/v1/whoami', { modelId: restricted }), 404, `Model not found: ${restricted}`);
      const admin = await new Api(seeded.url, 'tiny-org-admin').get('/api/v1/whoami');
      expect(Object.keys(admin.body.rolesByModel)).toHaveLength(1);
      expect(admin.body.rolesByModelTruncated).toBe(true);
    } finally {
      await seeded.close();
    }
  });
});
