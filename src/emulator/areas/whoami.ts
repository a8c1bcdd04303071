// GET /api/v1/whoami as the vendor documents it: the caller's key scope, organization role and
// per-model roles (`{baseRole, roleName, connectionId, permissions}`); the user as `{id,
// membershipId}`, two distinct ids. The `modelId` filter answers 404 when any listed model is
// missing or not accessible. What `user` holds for an organization key is OPEN (gaps.md): the
// creator, or one of three forms of "none".
import type { Whoami } from '../../api/types.js';
import type { Caller } from '../auth.js';
import type { Route } from '../context.js';
import type { OrgKeyUser } from '../profiles.js';
import { json, notFound } from '../http.js';
import { baseUserId, modelRoleOf, permissionsOf, type EmulatorState, type StoredUser } from '../state.js';

/** One model's role as whoami documents it. */
interface WhoamiModelRoleBody {
  baseRole: string;
  roleName: string;
  connectionId: string;
  permissions: string[];
}

/** The connection every emulated model queries through. */
const CONNECTION_ID = '00000000-0000-4000-8000-00000000c0de';

function accessibleRoles(state: EmulatorState, user: StoredUser): [string, WhoamiModelRoleBody][] {
  const roles: [string, WhoamiModelRoleBody][] = [];
  for (const model of state.models) {
    const role = modelRoleOf(model, user.id);
    if (role !== null) roles.push([model.id, { baseRole: role, roleName: model.roleNames?.[role] ?? role, connectionId: CONNECTION_ID, permissions: permissionsOf(role) }]);
  }
  return roles;
}

/** The wire form: `user` as the vendor has it, or absent, null or with null ids for a key tied to no user. */
type WhoamiBody = Omit<Whoami, 'user' | 'rolesByModel'> & {
  rolesByModel: Record<string, WhoamiModelRoleBody>;
  user?: { id: string; membershipId: string } | null | { id: null; membershipId: null };
};

/** The `user` member of the answer (undefined: leave the key out). */
function whoamiUser(caller: Caller, orgKeyUser: OrgKeyUser): WhoamiBody['user'] {
  if (caller.user !== null) return { id: baseUserId(caller.user), membershipId: caller.user.id };
  switch (orgKeyUser) {
    case 'absent':
      return undefined;
    case 'null':
      return null;
    case 'null-fields':
      return { id: null, membershipId: null };
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
      let rolesByModel: Record<string, WhoamiModelRoleBody>;
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
