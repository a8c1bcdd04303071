// The types read off the schemas say what the check guarantees, no more: a field ajv fills in
// (an absent nullable field, an absent SCIM list) is there, a field it lets be absent is optional,
// a field it passes over is unknown, an enum is its values; and a body steward sends has the
// contract's fields only. Checked by the type checker (`npm run typecheck`); the run only counts.
import { describe, expectTypeOf, it } from 'vitest';
import { checkShape } from '../../src/api/shapes.js';
import type { CreditControls, CreditControlsPatch, DocumentRecord, Routine, RoutinePut, ScimUser, UserCreditLimitWrite, Whoami } from '../../src/api/types.js';

describe('the type of a checked body', () => {
  it('has what ajv fills in, optional what may be absent, unknown what is passed over', () => {
    expectTypeOf<CreditControls['accountCreditLimit']>().toEqualTypeOf<number | null>();
    expectTypeOf<CreditControls>().toHaveProperty('entityGroupDefaultCredits');
    expectTypeOf<Pick<CreditControls, 'entityGroupDefaultCredits'>>().toEqualTypeOf<{ entityGroupDefaultCredits?: number | null }>();
    expectTypeOf<CreditControls['periodStart']>().toBeUnknown();
    expectTypeOf<Routine['description']>().toEqualTypeOf<string | null>();
    expectTypeOf<Routine['lastRun']>().toBeUnknown();
    expectTypeOf<DocumentRecord['labels']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<ScimUser['emails']>().toEqualTypeOf<{ value: string; primary?: boolean }[]>();
    expectTypeOf<ScimUser['displayName']>().toBeString();
  });

  it('holds an enum to its values, and whoami\'s user to one form of "none"', () => {
    expectTypeOf<Whoami['keyScope']>().toEqualTypeOf<'user' | 'organization'>();
    expectTypeOf<Whoami['orgRole']>().toBeString();
    expectTypeOf<Whoami['user']>().toEqualTypeOf<{ id: string | null; membershipId: string } | null>();
    expectTypeOf<Extract<Routine['destination'], { type: 'slack' }>['slackRecipientType']>().toEqualTypeOf<'channel' | 'users'>();
  });

  it('is the type of the shape it was checked against', () => {
    const checked = checkShape('label', { name: 'finance', color: null, description: null, homepage: false, verified: true, usage_count: 0 });
    if (checked.ok) expectTypeOf(checked.value.usage_count).toBeNumber();
  });
});

describe('the type of a body steward sends', () => {
  it('has the fields the contract documents, and no other', () => {
    expectTypeOf<{ name: string; prompt: string; schedule: string; isActive: false }>().toMatchTypeOf<RoutinePut>();
    expectTypeOf<keyof RoutinePut>().toEqualTypeOf<'name' | 'prompt' | 'schedule' | 'description' | 'modelId' | 'isActive'>();
    expectTypeOf<keyof CreditControlsPatch>().toEqualTypeOf<'downgradeCredits' | 'shutoffCredits' | 'userDefaultCredits' | 'entityGroupDefaultCredits'>();
    expectTypeOf<UserCreditLimitWrite>().toEqualTypeOf<{ userId: string; creditLimit?: number | null; useDefaultLimit?: true }>();
  });
});
