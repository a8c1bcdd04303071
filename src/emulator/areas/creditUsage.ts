// AI credit usage (Organization Admin): `POST /api/v1/ai/credit-usage/users` reads this period's
// usage of up to 1,000 users by membership id, as the vendor's agent skills describe it (no
// duplicates; an unknown id answers 404 naming it; a user without usage reports 0). The answer's
// shape is steward's choice (docs/api-contract.md, OPEN). A server without the endpoint (the
// `other` profile: knob `creditUsage`) answers 404 as for any unknown path.
import { CREDIT_LIMIT_BATCH_MAX } from '../../domain/rules.js';
import type { RequestContext, Route } from '../context.js';
import { badRequest, HttpProblem, json, notFound } from '../http.js';
import { findUser } from '../state.js';
import { rejectUnknownFields, requireObject, stringValue } from '../validate.js';
import { requireCreditControls } from './creditControls.js';

const PATH = '/api/v1/ai/credit-usage/users';

function readUserUsage(context: RequestContext) {
  if (!context.knobs.creditUsage) throw new HttpProblem(404, `Not Found: no endpoint at ${PATH}`);
  requireCreditControls(context);
  const body = requireObject(context.body);
  rejectUnknownFields(body, ['userIds']);
  const ids = body.userIds;
  if (ids === undefined) throw badRequest('userIds', 'is required');
  if (!Array.isArray(ids)) throw badRequest('userIds', 'must be an array');
  if (ids.length === 0) throw badRequest('userIds', 'must contain at least one id');
  if (ids.length > CREDIT_LIMIT_BATCH_MAX) throw badRequest('userIds', `at most ${CREDIT_LIMIT_BATCH_MAX} ids per request, got ${ids.length}`);
  const userIds = ids.map((id: unknown, index) => stringValue(id, `userIds[${index}]`, { min: 1, max: 255 }));
  const duplicate = userIds.findIndex((id, index) => userIds.indexOf(id) !== index);
  if (duplicate !== -1) throw badRequest(`userIds[${duplicate}]`, `duplicate id ${userIds[duplicate]!}`);
  const unknown = userIds.find((id) => findUser(context.state, id) === undefined);
  if (unknown !== undefined) throw notFound(`User not found: ${unknown}`);
  const usage = context.state.userCreditUsage ?? {};
  const now = context.now;
  return json({
    users: userIds.map((userId) => ({ userId, creditsUsed: usage[userId] ?? 0 })),
    periodStart: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
    periodEnd: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
  });
}

export const creditUsageRoutes: Route[] = [{ method: 'POST', template: PATH, handler: readUserUsage, readOnly: true }];
