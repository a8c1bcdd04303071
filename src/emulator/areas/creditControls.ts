// AI credit controls (Organization Admin): GET and PATCH of the organization settings, with
// every PATCH rule the vendor documents (at least one field, no unknown field, non-negative or
// null, downgrade <= shutoff checked on the merged result). The seven documented fields; with
// `entityGroupDefaultCredits` (the generated client's answer) an eighth, read and written.
import { CREDIT_CONTROL_FIELDS, type CreditControls, type CreditControlSettings } from '../../api/types.js';
import { requireOrgAdmin } from '../auth.js';
import type { RequestContext, Route } from '../context.js';
import { badRequest, forbidden, json } from '../http.js';
import type { EmulatorState } from '../state.js';
import { creditValue, rejectUnknownFields, requireObject } from '../validate.js';

export const CREDIT_CONTROLS_DISABLED = 'AI credit controls are not enabled for this organization';

/** Throws 403 unless the caller is an Organization Admin and credit controls are enabled. */
export function requireCreditControls(context: RequestContext): void {
  requireOrgAdmin(context.caller);
  if (!context.state.organization.creditControlsEnabled) throw forbidden(CREDIT_CONTROLS_DISABLED);
}

/** The settings a PATCH may change: the documented three, and the entity-group default when served. */
function settingFields(withEntityGroupDefault: boolean): readonly (keyof CreditControlSettings)[] {
  return withEntityGroupDefault ? CREDIT_CONTROL_FIELDS : CREDIT_CONTROL_FIELDS.filter((field) => field !== 'entityGroupDefaultCredits');
}

/** The wire form of the credit controls; the period is the current UTC calendar month. */
export function toCreditControls(state: EmulatorState, now: Date, withEntityGroupDefault: boolean): CreditControls {
  const { creditControls } = state;
  return {
    accountCreditLimit: creditControls.accountCreditLimit,
    creditsUsed: creditControls.creditsUsed,
    downgradeCredits: creditControls.downgradeCredits,
    shutoffCredits: creditControls.shutoffCredits,
    userDefaultCredits: creditControls.userDefaultCredits,
    ...(withEntityGroupDefault ? { entityGroupDefaultCredits: creditControls.entityGroupDefaultCredits } : {}),
    periodStart: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
    periodEnd: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
  };
}

function patchCreditControls(context: RequestContext) {
  requireCreditControls(context);
  const body = requireObject(context.body);
  const fields = settingFields(context.knobs.entityGroupDefaultCredits);
  rejectUnknownFields(body, fields);
  const present = fields.filter((field) => field in body);
  if (present.length === 0) {
    throw badRequest('body', `at least one of ${fields.join(', ')} is required`);
  }
  const changes: Partial<CreditControlSettings> = {};
  for (const field of present) changes[field] = creditValue(body[field], field);
  const merged = { ...context.state.creditControls, ...changes };
  if (
    merged.downgradeCredits !== null &&
    merged.shutoffCredits !== null &&
    merged.downgradeCredits > merged.shutoffCredits
  ) {
    throw badRequest(
      'downgradeCredits',
      `must be less than or equal to shutoffCredits (${merged.downgradeCredits} > ${merged.shutoffCredits})`,
    );
  }
  context.state.creditControls = merged;
  return json(toCreditControls(context.state, context.now, context.knobs.entityGroupDefaultCredits));
}

export const creditControlRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v1/ai/credit-controls',
    handler: (context) => {
      requireCreditControls(context);
      return json(toCreditControls(context.state, context.now, context.knobs.entityGroupDefaultCredits));
    },
  },
  { method: 'PATCH', template: '/api/v1/ai/credit-controls', handler: patchCreditControls },
];
