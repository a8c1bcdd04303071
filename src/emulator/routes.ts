// The emulator's route table: every area's routes in one router (which refuses duplicates).
import type { RoutineUpdateMethod } from './profiles.js';
import { apiKeyRoutes } from './areas/apiKeys.js';
import { creditControlRoutes } from './areas/creditControls.js';
import { creditLimitRoutes } from './areas/creditLimits.js';
import { creditUsageRoutes } from './areas/creditUsage.js';
import { documentRoutes } from './areas/documents.js';
import { folderRoutes } from './areas/folders.js';
import { labelRoutes } from './areas/labels.js';
import { modelRoutes } from './areas/models.js';
import { routineRoutes } from './areas/routines.js';
import { scimRoutes } from './areas/scim.js';
import { whoamiRoutes } from './areas/whoami.js';
import { Router } from './router.js';

/** The router of every platform endpoint the emulator serves. */
export function platformRouter(routineUpdateMethod: RoutineUpdateMethod): Router {
  return new Router([
    ...whoamiRoutes,
    ...creditControlRoutes,
    ...creditLimitRoutes,
    ...creditUsageRoutes,
    ...routineRoutes(routineUpdateMethod),
    ...labelRoutes,
    ...modelRoutes,
    ...documentRoutes,
    ...folderRoutes,
    ...scimRoutes,
    ...apiKeyRoutes,
  ]);
}
