// What a key may do is read from whoami's scope, organization role and permissions, never from a
// role's name: a custom role name decides nothing, USE_AI does.
import { REGISTRY } from '../../src/kinds/registry.js';
import { describe, expect, it } from 'vitest';
import type { Whoami } from '../../src/api/types.js';
import type { RoutineConfig } from '../../src/config/types.js';
import { permissionProblems } from '../../src/resolve/preflight.js';
import { config } from './builders.js';

const ROUTINE: RoutineConfig = {
  name: 'Digest',
  prompt: 'Summarise revenue.',
  schedule: '0 9 ? * MON *',
  timezone: 'UTC',
  model: 'Sales',
  modelId: 'm-sales',
  destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
};

function whoami(parts: Partial<Whoami>): Whoami {
  return { keyScope: 'user', orgRole: 'MEMBER', rolesByModel: {}, user: { id: 'user-ada', membershipId: 'u-ada' }, ...parts };
}

describe('the permissions a plan needs', () => {
  it('asks a personal token for USE_AI on each routine model, whatever the role is called', () => {
    const custom = whoami({ rolesByModel: { 'm-sales': { permissions: ['RUN_CONTENT_QUERIES', 'USE_AI'] } } });
    expect(permissionProblems(custom, config({ routines: [ROUTINE] }), [REGISTRY.get('routines')!], [])).toEqual([]);
    const without = whoami({ rolesByModel: { 'm-sales': { permissions: ['RUN_CONTENT_QUERIES'] } } });
    expect(permissionProblems(without, config({ routines: [ROUTINE, { ...ROUTINE, name: 'Second' }] }), [REGISTRY.get('routines')!], [])).toEqual([
      {
        problem: 'this token\'s user lacks the USE_AI permission on model Sales, which routines "Digest", "Second" run against',
        at: [['routines', 0, 'model'], ['routines', 1, 'model']],
      },
    ]);
  });

  it('does not judge an organization key by its creator\'s model roles: the owners are other users', () => {
    const key = whoami({ keyScope: 'organization', rolesByModel: { 'm-sales': { permissions: [] } } });
    expect(permissionProblems(key, config({ routines: [ROUTINE] }), [REGISTRY.get('routines')!], [])).toEqual([]);
  });

  it('takes only ORG_ADMIN as an Organization Admin; a role the documents do not name is not one', () => {
    const limits = config({ creditControls: { shutoffCredits: 10 } });
    expect(permissionProblems(whoami({ orgRole: 'ORG_ADMIN' }), limits, [REGISTRY.get('creditControls')!], [])).toEqual([]);
    expect(permissionProblems(whoami({ orgRole: 'ORG_OWNER' }), limits, [REGISTRY.get('creditControls')!], [])).toEqual([
      { problem: "creditControls need an Organization Admin key; this key's organization role is ORG_OWNER", at: [['creditControls']] },
    ]);
  });
});
