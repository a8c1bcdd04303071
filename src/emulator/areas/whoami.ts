// GET /api/v1/whoami: the caller's key scope, organization role and per-model roles; the
// `modelId` filter answers 404 when any listed model is missing or not accessible. What `user`
// holds for an organization key is OPEN (gaps.md): the creator, or one of three forms of "none".
import type { Whoami, WhoamiModelRole, WhoamiUser } from '../../api/types.js';
import type { Caller } from '../auth.js';
import type { Route } from '../context.js';
import type { OrgKeyUser } from '../profiles.js';
import { json, notFound } from '../http.js';
import { modelRoleOf, permissionsOf, type EmulatorState, type StoredUser } from '../state.js';

function accessibleRoles(state: EmulatorState, user: StoredUser): [string, WhoamiModelRole][] {
  const roles: [string, WhoamiModelRole][] = [];
  for (const model of state.models) {
    const role = modelRoleOf(model, user.id);
    if (role !== null) roles.push([model.id, { role, permissions: permissionsOf(role) }]);
  }
  return roles;
}

/** The wire form: `user` as api.md has it, or absent, null or with null fields for a key tied to no user. */
type WhoamiBody = Omit<Whoami, 'user'> & { user?: WhoamiUser | null | { id: null; email: null; name: null } };

/** The `user` member of the answer (undefined: leave the key out). */
function whoamiUser(caller: Caller, orgKeyUser: OrgKeyUser): WhoamiBody['user'] {
  if (caller.user !== null) return { id: caller.user.id, email: caller.user.email, name: caller.user.displayName };
  switch (orgKeyUser) {
    case 'absent':
      return undefined;
    case 'null':
      return null;
    case 'null-fields':
      return { id: null, email: null, name: null };
    case 'creator':
      throw new Error('an organization key that acts for its creator has a user');
  }
}

export const whoamiRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v1/whoami',
    handler: ({ caller, state, query, knobs }) => {
      // A key tied to no user still has the model roles it was given through its creator.
      const roles = accessibleRoles(state, caller.creator);
      const filter = query.get('modelId');
      let rolesByModel: Record<string, WhoamiModelRole>;
      let truncated = false;
      if (filter !== null) {
        const wanted = filter.split(',').map((id) => id.trim()).filter((id) => id !== '');
        const byId = new Map(roles);
        rolesByModel = {};
        for (const id of wanted) {
          const role = byId.get(id);
          if (!role) throw notFound(`Model not found: ${id}`);
          rolesByModel[id] = role;
        }
      } else {
        const limit = state.organization.whoamiModelLimit;
        truncated = roles.length > limit;
        rolesByModel = Object.fromEntries(roles.slice(0, limit));
      }
      const user = whoamiUser(caller, knobs.orgKeyUser);
      const body: WhoamiBody = {
        keyScope: caller.keyScope,
        orgRole: caller.orgRole,
        rolesByModel,
        ...(truncated ? { rolesByModelTruncated: true } : {}),
        ...(user === undefined ? {} : { user }),
      };
      return json(body);
    },
  },
];
