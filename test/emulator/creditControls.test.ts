// AI credit controls: GET, and every PATCH rule the vendor documents (empty body, undocumented
// key, negative value, wrong type, downgrade > shutoff on the merged result), 403 cases, and the
// generated client's eighth field, entityGroupDefaultCredits, served only with its knob.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { Api, aSeed, expectDetail, expectError, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();
// The generated client's answer: an eighth field, read and written.
const withEntityGroupDefault = useEmulator({ entityGroupDefaultCredits: true });
const PATH = '/api/v1/ai/credit-controls';

function period() {
  const now = new Date();
  return { periodStart: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1), periodEnd: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) };
}

describe('GET /api/v1/ai/credit-controls', () => {
  it('returns exactly the seven documented fields, with the read-only context of the current UTC month', async () => {
    const response = await fixture.api.get(PATH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      accountCreditLimit: 12000,
      creditsUsed: 3120.5,
      downgradeCredits: 8000,
      shutoffCredits: 10000,
      userDefaultCredits: 200,
      ...period(),
    });
  });

  it('adds entityGroupDefaultCredits as the eighth field when the server follows the generated client', async () => {
    const response = await withEntityGroupDefault.api.get(PATH);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      accountCreditLimit: 12000,
      creditsUsed: 3120.5,
      downgradeCredits: 8000,
      shutoffCredits: 10000,
      userDefaultCredits: 200,
      entityGroupDefaultCredits: null,
      ...period(),
    });
  });
});

describe('PATCH /api/v1/ai/credit-controls', () => {
  it('changes only the fields sent and returns the seven documented fields', async () => {
    const response = await fixture.api.patch(PATH, { userDefaultCredits: 250 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      accountCreditLimit: 12000,
      creditsUsed: 3120.5,
      downgradeCredits: 8000,
      shutoffCredits: 10000,
      userDefaultCredits: 250,
      ...period(),
    });
    expect(fixture.emulator.state.creditControls().userDefaultCredits).toBe(250);
  });

  it('takes and returns entityGroupDefaultCredits when the server follows the generated client', async () => {
    const response = await withEntityGroupDefault.api.patch(PATH, { userDefaultCredits: 250, entityGroupDefaultCredits: 75 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ downgradeCredits: 8000, shutoffCredits: 10000, userDefaultCredits: 250, entityGroupDefaultCredits: 75 });
    expect(withEntityGroupDefault.emulator.state.creditControls()).toMatchObject({ userDefaultCredits: 250, entityGroupDefaultCredits: 75 });
    expectDetail(
      await withEntityGroupDefault.api.patch(PATH, {}),
      400,
      'Bad Request: body: at least one of downgradeCredits, shutoffCredits, userDefaultCredits, entityGroupDefaultCredits is required',
    );
  });

  it('turns a control off with null', async () => {
    const response = await fixture.api.patch(PATH, { downgradeCredits: null, userDefaultCredits: null });
    expect(response.body).toMatchObject({ downgradeCredits: null, userDefaultCredits: null, shutoffCredits: 10000 });
  });

  it('checks downgrade <= shutoff on the merged result, so one PATCH can move both', async () => {
    expectDetail(
      await fixture.api.patch(PATH, { downgradeCredits: 12000 }),
      400,
      'Bad Request: downgradeCredits: must be less than or equal to shutoffCredits (12000 > 10000)',
    );
    expectDetail(
      await fixture.api.patch(PATH, { shutoffCredits: 5000 }),
      400,
      'Bad Request: downgradeCredits: must be less than or equal to shutoffCredits (8000 > 5000)',
    );
    const both = await fixture.api.patch(PATH, { downgradeCredits: 12000, shutoffCredits: 15000 });
    expect(both.body).toMatchObject({ downgradeCredits: 12000, shutoffCredits: 15000 });
    const shutoffOff = await fixture.api.patch(PATH, { shutoffCredits: null });
    expect(shutoffOff.status).toBe(200);
  });

  it.each([
    ['an empty body', {}, 'Bad Request: body: at least one of downgradeCredits, shutoffCredits, userDefaultCredits is required'],
    ['a negative value', { shutoffCredits: -1 }, 'Bad Request: shutoffCredits: must be a non-negative number or null'],
    ['a string value', { userDefaultCredits: '100' }, 'Bad Request: userDefaultCredits: must be a non-negative number or null'],
    // Undocumented keys meet the vendor's generic refusal before the handler's own checks.
    ['an unknown field', { downgradeCredits: 1, monthlyBudget: 5 }, "Bad Request: formErrors: Unrecognized key(s) in object: 'monthlyBudget'"],
    ['entityGroupDefaultCredits (not documented)', { entityGroupDefaultCredits: 75 }, "Bad Request: formErrors: Unrecognized key(s) in object: 'entityGroupDefaultCredits'"],
    ['the read-only context', { creditsUsed: 0, periodEnd: 1 }, "Bad Request: formErrors: Unrecognized key(s) in object: 'creditsUsed', 'periodEnd'"],
    ['a body that is not an object', [1, 2], 'Bad Request: body: must be a JSON object'],
  ])('rejects %s with 400 and changes nothing', async (_what, body, detail) => {
    expectDetail(await fixture.api.patch(PATH, body), 400, detail);
    expect(fixture.emulator.state.creditControls()).toMatchObject({ downgradeCredits: 8000, shutoffCredits: 10000, userDefaultCredits: 200, entityGroupDefaultCredits: null });
  });

  it('drops undocumented keys when it ignores them, so a body of nothing else is empty', async () => {
    const lenient = await startEmulator({ unknownKeys: 'ignore' });
    try {
      const admin = new Api(lenient.url, TOKENS.orgAdmin);
      const response = await admin.patch(PATH, { shutoffCredits: 11000, monthlyBudget: 5, entityGroupDefaultCredits: 75 });
      expect(response.status).toBe(200);
      expect(response.body).not.toHaveProperty('entityGroupDefaultCredits');
      expect(lenient.state.creditControls()).toMatchObject({ shutoffCredits: 11000, entityGroupDefaultCredits: null });
      expectDetail(
        await admin.patch(PATH, { monthlyBudget: 5 }),
        400,
        'Bad Request: body: at least one of downgradeCredits, shutoffCredits, userDefaultCredits is required',
      );
    } finally {
      await lenient.close();
    }
  });

  it('rejects a missing body with 400', async () => {
    expectDetail(await fixture.api.request('PATCH', PATH), 400, 'Bad Request: body: must be a JSON object');
  });

  it('refuses a MEMBER with 403', async () => {
    expectError(await fixture.api.as(TOKENS.gracePersonal).patch(PATH, { shutoffCredits: 1 }), 403, 'Insufficient permissions');
  });
});

describe('credit controls not enabled for the organization', () => {
  it('answers 403 on every credit-control endpoint', async () => {
    const seeded = await startEmulator({ data: aSeed({ organization: { name: 'Tiny Co', creditControlsEnabled: false } }) });
    try {
      const admin = new Api(seeded.url, 'tiny-org-admin');
      for (const path of [PATH, `${PATH}/users`, `${PATH}/entity-groups`]) {
        expectError(await admin.get(path), 403, 'AI credit controls are not enabled for this organization');
      }
      expectError(await admin.patch(PATH, { shutoffCredits: 1 }), 403, 'AI credit controls are not enabled for this organization');
    } finally {
      await seeded.close();
    }
  });
});
