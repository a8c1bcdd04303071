// GET /api/v1/whoami: the caller's key scope, organization role and per-model roles; the
// `modelId` filter answers 404 when any listed model is missing or not accessible.
import type { Whoami, WhoamiModelRole } from '../../api/types.js';
import type { Route } from '../context.js';
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

export const whoamiRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v1/whoami',
    handler: ({ caller, state, query }) => {
      const roles = accessibleRoles(state, caller.user);
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
      const body: Whoami = {
        keyScope: caller.keyScope,
        orgRole: caller.orgRole,
        rolesByModel,
        ...(truncated ? { rolesByModelTruncated: true } : {}),
        user: { id: caller.user.id, email: caller.user.email, name: caller.user.displayName },
      };
      return json(body);
    },
  },
];
