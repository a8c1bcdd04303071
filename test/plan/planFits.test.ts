// Where a saved plan is applied: where it was made, at the pace it was made at. The file passes
// through other hands, so the address it records gets the token on the file's word only when the
// config names it for the environment or it is this machine; any other address needs --base-url
// to repeat it, and a --base-url naming another instance is refused with the way to plan there.
import { describe, expect, it } from 'vitest';
import { checkPlanFits, type ApplyingHere } from '../../src/engine/planFile.js';
import { StewardError } from '../../src/errors.js';
import { PLAN_FORMAT_VERSION, type Plan } from '../../src/model/plan.js';

const CONFIG_URL = 'https://acme.example.com';

function savedPlan(fields: Partial<Plan> = {}): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    stewardVersion: '0.1.0',
    environment: 'production',
    baseUrl: CONFIG_URL,
    requestsPerMinute: 60,
    configDigest: 'sha256:config',
    createdAt: '2026-01-05T09:00:00.000Z',
    kinds: [],
    steps: [],
    summary: { create: 0, update: 0, replace: 0, delete: 0 },
    warnings: [],
    requests: 3,
    ...fields,
  };
}

const HERE: ApplyingHere = { environment: 'production', configDigest: 'sha256:config', configBaseUrl: CONFIG_URL, configRequestsPerMinute: 60 };

function refusal(plan: Plan, here: Partial<ApplyingHere>): StewardError {
  try {
    checkPlanFits(plan, { ...HERE, ...here });
  } catch (error) {
    if (error instanceof StewardError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('where a saved plan is applied', () => {
  it('applies a plan made against the config\'s URL there, saying nothing', () => {
    expect(checkPlanFits(savedPlan(), HERE)).toEqual({ baseUrl: CONFIG_URL, requestsPerMinute: 60, fromPlan: false });
    // The same instance written another way, as the client would join requests to it.
    expect(checkPlanFits(savedPlan({ baseUrl: 'https://acme.example.com/api/' }), HERE)).toMatchObject({ baseUrl: 'https://acme.example.com/api/', fromPlan: false });
  });

  it.each(['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010'])('applies a plan made on this machine (%s) there, and says so', (baseUrl) => {
    expect(checkPlanFits(savedPlan({ baseUrl, requestsPerMinute: 600 }), HERE)).toEqual({ baseUrl, requestsPerMinute: 600, fromPlan: true });
  });

  it('paces at the plan\'s budget, unless --requests-per-minute says otherwise; an older file paces at the config\'s', () => {
    expect(checkPlanFits(savedPlan({ requestsPerMinute: 600 }), HERE)).toEqual({ baseUrl: CONFIG_URL, requestsPerMinute: 600, fromPlan: true });
    expect(checkPlanFits(savedPlan({ requestsPerMinute: 600 }), { ...HERE, requestsPerMinute: 120 })).toEqual({ baseUrl: CONFIG_URL, requestsPerMinute: 120, fromPlan: false });
    const { requestsPerMinute: _older, ...older } = savedPlan();
    expect(checkPlanFits(older as Plan, { ...HERE, configRequestsPerMinute: 30 })).toEqual({ baseUrl: CONFIG_URL, requestsPerMinute: 30, fromPlan: false });
  });

  it('sends the token to an address only the file names when --base-url repeats it, and not before', () => {
    const plan = savedPlan({ baseUrl: 'https://acme-staging.example.com' });
    const refused = refusal(plan, {});
    expect(refused.code).toBe('plan-file.base-url');
    expect(refused.message).toBe(
      'this plan was made against https://acme-staging.example.com, which is neither environment "production"\'s baseUrl (https://acme.example.com) nor this machine; the API token goes there only when --base-url names it too',
    );
    expect(refused.hint).toBe(
      'if https://acme-staging.example.com is where you mean to apply it, add --base-url https://acme-staging.example.com; else make a new plan against https://acme.example.com: steward plan --env production --out FILE',
    );
    expect(checkPlanFits(plan, { ...HERE, baseUrl: 'https://acme-staging.example.com/' })).toEqual({ baseUrl: 'https://acme-staging.example.com/', requestsPerMinute: 60, fromPlan: false });
  });

  it('refuses a --base-url other than the plan\'s, with the way to plan against it', () => {
    const refused = refusal(savedPlan({ baseUrl: 'http://127.0.0.1:4010' }), { baseUrl: 'https://acme-staging.example.com' });
    expect(refused.code).toBe('plan-file.base-url');
    expect(refused.message).toBe('this plan was made against http://127.0.0.1:4010, not https://acme-staging.example.com; its steps were read there');
    expect(refused.hint).toBe(
      'to apply changes at https://acme-staging.example.com, make a new plan against it: steward plan --env production --base-url https://acme-staging.example.com --out FILE; to apply this plan, leave out --base-url',
    );
    // Where the plan's own address needs the flag, the hint says to repeat it.
    expect(refusal(savedPlan({ baseUrl: 'https://acme-staging.example.com' }), { baseUrl: CONFIG_URL }).hint).toBe(
      'to apply changes at https://acme.example.com, make a new plan against it: steward plan --env production --out FILE; to apply this plan, pass --base-url https://acme-staging.example.com',
    );
  });

  it('refuses another environment before looking at the address, and a changed config after', () => {
    expect(refusal(savedPlan({ baseUrl: 'https://elsewhere.example' }), { environment: 'playground' }).code).toBe('plan-file.environment');
    expect(refusal(savedPlan({ baseUrl: 'https://elsewhere.example' }), { configDigest: 'sha256:edited' }).code).toBe('plan-file.base-url');
    expect(refusal(savedPlan(), { configDigest: 'sha256:edited' }).code).toBe('plan-file.config-changed');
  });
});
