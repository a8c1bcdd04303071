// Promotion's desired state: the source's sections with the target's ids, under the config's
// prune settings and protection.
import { describe, expect, it } from 'vitest';
import type { EnvironmentConfig, RoutineConfig, StewardConfig, UserGroupCreditLimitConfig } from '../../src/config/types.js';
import type { ConfigSections } from '../../src/export/mapping.js';
import { fieldsToHold } from '../../src/promote/held.js';
import { promotedConfig, sectionsDigest } from '../../src/promote/promotion.js';

const PRODUCTION: EnvironmentConfig = { baseUrl: 'https://acme.example.com', tokenEnv: 'PROD', variables: { salesModelId: 'm-prod' } };
const PLAYGROUND: EnvironmentConfig = { baseUrl: 'https://play.acme.example.com', tokenEnv: 'PLAY', variables: { salesModelId: 'm-play' }, protect: { routines: true } };

function routine(name: string, overrides: Partial<RoutineConfig> = {}): RoutineConfig {
  return { name, prompt: 'p', schedule: '0 9 ? * MON *', timezone: 'UTC', modelId: 'm-play', destination: { type: 'slack', recipientId: 'C0ABCDEF1', slackRecipientType: 'channel' }, ...overrides };
}

function promote(config: Partial<StewardConfig>, sections: ConfigSections, hold: Parameters<typeof promotedConfig>[0]['hold'] = []) {
  return promotedConfig({
    config: { version: 1, environments: { production: PRODUCTION, playground: PLAYGROUND }, ...config },
    source: { name: 'playground', environment: PLAYGROUND },
    target: { name: 'production', environment: PRODUCTION },
    sections,
    hold,
  });
}

describe('promotedConfig', () => {
  it('takes the source\'s objects with the target\'s ids, and keeps the config\'s prune settings and environments', () => {
    const promoted = promote(
      { routines: [routine('Declared but not in the source', { modelId: 'm-prod' }), routine('Digest', { modelId: 'm-prod' })], prune: { routines: true, labels: false } },
      { routines: [routine('Digest')], creditControls: { shutoffCredits: 5 } },
    );
    expect(promoted.config).toEqual({
      version: 1,
      environments: { production: PRODUCTION, playground: PLAYGROUND },
      creditControls: { shutoffCredits: 5 },
      routines: [routine('Digest', { modelId: 'm-prod' })],
      prune: { routines: true, labels: false },
    });
    expect(promoted.environment).toBe(PRODUCTION);
    expect(promoted.warnings).toEqual([]);
  });

  it('carries protect, renamedFrom and pruneDocuments over by name, and protects declared objects the source lacks', () => {
    const promoted = promote(
      {
        userCreditLimits: [{ email: 'Grace@acme.example', creditLimit: 750, protect: true }],
        routines: [routine('Guarded', { protect: true })],
        labels: [
          { name: 'board-kpis', renamedFrom: ['legacy-kpis', 'kpis'], documents: [], pruneDocuments: true },
          { name: 'keep-me', protect: true },
        ],
      },
      {
        userCreditLimits: [{ email: 'grace@acme.example', creditLimit: 500 }],
        labels: [{ name: 'Board-KPIs', color: null, documents: ['9d8e7f60'] }, { name: 'kpis', documents: [] }],
      },
    );
    expect(promoted.config.userCreditLimits).toEqual([{ email: 'grace@acme.example', creditLimit: 500, protect: true }]);
    // `kpis` is a label of the source itself, so it is not renamed into board-kpis.
    expect(promoted.config.labels).toEqual([
      { name: 'Board-KPIs', color: null, documents: ['9d8e7f60'], renamedFrom: ['legacy-kpis'], pruneDocuments: true },
      { name: 'kpis', documents: [] },
    ]);
    expect(promoted.environment.protect).toEqual({ userCreditLimits: ['Grace@acme.example'], routines: ['Guarded'], labels: ['keep-me'] });
    expect(promoted.config.environments.production).toBe(promoted.environment);
  });

  it('takes each entry\'s flags from the declared entry its kind matches it to', () => {
    const promoted = promote(
      {
        userCreditLimits: [
          { userId: 'u-9', creditLimit: 1, protect: true },
          // Named by e-mail where the promoted limit gives one: a declared user id that spells it is another entry.
          { userId: 'ada@acme.example', creditLimit: 1, protect: true },
        ],
        userGroupCreditLimits: [{ group: 'Finance', creditLimit: 1, protect: true }, { group: 'Sales Ops', creditLimit: 1, ignore: ['creditLimit'] }],
        entityGroupCreditLimits: [{ entity: 'embed-partners', creditLimit: 1, ignore: ['creditLimit'] }, { entity: 'Embed-Trial', creditLimit: 1, protect: true }],
        routines: [routine('Digest', { modelId: 'm-prod', protect: true })],
      },
      {
        userCreditLimits: [{ userId: 'u-9', creditLimit: 2 }, { email: 'ada@acme.example', creditLimit: 2 }],
        // Group names are matched exactly, as SCIM resolves them; entities and routines by their exact names too.
        userGroupCreditLimits: [{ group: 'finance', creditLimit: 2 }, { group: 'Sales Ops', creditLimit: 2 }],
        entityGroupCreditLimits: [{ entity: 'embed-partners', creditLimit: 2 }, { entity: 'embed-trial', creditLimit: 2 }],
        routines: [routine('digest', { modelId: 'm-play' })],
      },
    );
    expect(promoted.config.userCreditLimits).toEqual([{ userId: 'u-9', creditLimit: 2, protect: true }, { email: 'ada@acme.example', creditLimit: 2 }]);
    expect(promoted.config.userGroupCreditLimits).toEqual([{ group: 'finance', creditLimit: 2 }, { group: 'Sales Ops', creditLimit: 2, ignore: ['creditLimit'] }]);
    expect(promoted.config.entityGroupCreditLimits).toEqual([{ entity: 'embed-partners', creditLimit: 2, ignore: ['creditLimit'] }, { entity: 'embed-trial', creditLimit: 2 }]);
    expect(promoted.config.routines).toEqual([routine('digest', { modelId: 'm-prod' })]);
  });

  it('warns about an owner the config names who has no routines in the source', () => {
    const promoted = promote({ routines: [routine('KPIs', { owner: 'grace@acme.example' })] }, { routines: [routine('Digest')] });
    expect(promoted.warnings.map((warning) => warning.message)).toEqual([
      'grace@acme.example has no routines in playground, so their routines in production are left as they are (a promotion compares the routines of owners the source has)',
    ]);
  });

  it('refuses a model id no variable names', () => {
    expect(() => promote({}, { routines: [routine('Digest', { modelId: 'm-lost' })] })).toThrow('routine "Digest": modelId m-lost of playground is not the value of any variable');
  });
});

describe('user group limits SCIM does not name (by id)', () => {
  const production: EnvironmentConfig = { ...PRODUCTION, variables: { financeGroup: 'g-prod-fin', a: 'p-1', b: 'p-2' } };
  const playground: EnvironmentConfig = { ...PLAYGROUND, variables: { financeGroup: 'g-play-fin', a: 'g-play-ops', b: 'g-play-ops', opsGroup: 'g-play-sales' } };

  function promoteLimits(userGroupCreditLimits: UserGroupCreditLimitConfig[], config: Partial<StewardConfig> = {}) {
    return promotedConfig({
      config: { version: 1, environments: { production, playground }, ...config },
      source: { name: 'playground', environment: playground },
      target: { name: 'production', environment: production },
      sections: { userGroupCreditLimits },
    });
  }

  function refusal(userGroupCreditLimits: UserGroupCreditLimitConfig[]): unknown {
    try {
      promoteLimits(userGroupCreditLimits);
    } catch (error) {
      return error;
    }
    return undefined;
  }

  it('takes the target\'s id through the variable of the same name, and the declared entry\'s flags by that id', () => {
    const promoted = promoteLimits([{ userGroupId: 'g-play-fin', creditLimit: 1500 }, { group: 'Sales Ops', creditLimit: 400 }], {
      userGroupCreditLimits: [{ userGroupId: 'g-prod-fin', creditLimit: 900, protect: true }],
    });
    expect(promoted.config.userGroupCreditLimits).toEqual([{ userGroupId: 'g-prod-fin', creditLimit: 1500, protect: true }, { group: 'Sales Ops', creditLimit: 400 }]);
  });

  it('refuses an id no variable maps, and one two variables map differently, in its own words', () => {
    expect(refusal([{ userGroupId: 'g-play-unknown', creditLimit: 1 }])).toMatchObject({
      code: 'promote.unmapped-group',
      message: 'user group credit limit of group g-play-unknown in playground: SCIM does not name the group (or its name is not unique), so steward cannot tell which group it is in production',
      hint: "declare a variable holding it under environments.playground.variables and the same variable with production's id under environments.production.variables",
    });
    expect(refusal([{ userGroupId: 'g-play-sales', creditLimit: 1 }])).toMatchObject({
      code: 'promote.unmapped-group',
      hint: "declare opsGroup under environments.production.variables with production's id",
    });
    expect(refusal([{ userGroupId: 'g-play-ops', creditLimit: 1 }])).toMatchObject({
      code: 'promote.ambiguous-id',
      message: 'user group credit limit of group g-play-ops in playground: variables a, b hold it, and their values in production differ (p-1, p-2)',
      hint: 'give each id its own variable',
    });
  });
});

describe('what a promotion leaves home', () => {
  it('leaves objects the config does not declare to the target where the config prunes their kind, and carries them where it does not', () => {
    const promoted = promote(
      { routines: [routine('Digest')], labels: [{ name: 'finance' }], prune: { routines: true } },
      { routines: [routine('Digest'), routine('Tried in the app')], labels: [{ name: 'finance' }, { name: 'scratch' }] },
    );
    expect(promoted.config.routines?.map((entry) => entry.name)).toEqual(['Digest']);
    expect(promoted.config.labels?.map((entry) => entry.name)).toEqual(['finance', 'scratch']);
    // Protected, so a copy production already has is not deleted either.
    expect(promoted.environment.protect).toEqual({ routines: ['Tried in the app'] });
    expect(promoted.warnings).toEqual([
      {
        code: 'promote.undeclared',
        message:
          'left to production\'s own plan: an object playground has and the config does not declare (routine "Tried in the app"); the config prunes undeclared ones, so a promotion neither creates nor deletes them (declare one to promote it)',
      },
    ]);
  });

  it("keeps the target's declared value of a held field, and its default where it declares none", () => {
    const promoted = promote(
      { routines: [routine('Digest', { paused: false }), routine('Pulse')], userCreditLimits: [{ email: 'grace@acme.example', creditLimit: 750 }] },
      { routines: [routine('Digest', { paused: true, prompt: 'new' }), routine('Pulse', { paused: true })], userCreditLimits: [{ email: 'Grace@acme.example', creditLimit: 10 }] },
      [
        { kind: 'routines', key: 'Digest', field: 'paused', reason: 'variable routinesPaused differs by environment', variables: ['routinesPaused'] },
        { kind: 'routines', key: 'Pulse', field: 'paused', reason: "playground's policy routines.requirePaused" },
        { kind: 'userCreditLimits', key: 'grace@acme.example', field: 'creditLimit', reason: 'variable graceLimit differs by environment', variables: ['graceLimit'] },
        { kind: 'routines', key: 'Not in the source', field: 'paused', reason: "playground's policy routines.requirePaused" },
      ],
    );
    expect(promoted.config.routines).toEqual([routine('Digest', { modelId: 'm-prod', paused: false, prompt: 'new' }), routine('Pulse', { modelId: 'm-prod' })]);
    expect(promoted.config.userCreditLimits).toEqual([{ email: 'Grace@acme.example', creditLimit: 750 }]);
    expect(promoted.held.map((entry) => `${entry.key} ${entry.field}`)).toEqual(['Digest paused', 'Pulse paused', 'grace@acme.example creditLimit']);
  });
});

describe('fieldsToHold', () => {
  const config: StewardConfig = {
    version: 1,
    environments: {
      production: { ...PRODUCTION, variables: { salesModelId: 'm-prod', paused: false, graceLimit: 750, team: 'Finance' } },
      playground: { ...PLAYGROUND, variables: { salesModelId: 'm-play', paused: true, graceLimit: 10, team: 'Finance' }, policies: { routines: { requirePaused: true } } },
    },
    routines: [routine('Digest', { paused: false, modelId: 'm-prod', description: 'for Finance' }), routine('Pulse')],
    userCreditLimits: [{ email: 'grace@acme.example', creditLimit: 750 }],
  };
  const references = [
    { path: ['routines', 0, 'paused'], variables: ['paused'] },
    { path: ['routines', 0, 'modelId'], variables: ['salesModelId'] },
    { path: ['routines', 0, 'description'], variables: ['team'] },
    { path: ['userCreditLimits', 0, 'creditLimit'], variables: ['graceLimit'] },
  ];

  it('holds values from variables that differ by environment, and paused under the source\'s requirePaused; never ids or equal variables', () => {
    const held = fieldsToHold(config, references, { name: 'playground', environment: config.environments.playground! }, { name: 'production', environment: config.environments.production! });
    expect(held).toEqual([
      { kind: 'routines', key: 'Digest', field: 'paused', reason: 'variable paused differs by environment', variables: ['paused'] },
      { kind: 'userCreditLimits', key: 'grace@acme.example', field: 'creditLimit', reason: 'variable graceLimit differs by environment', variables: ['graceLimit'] },
      { kind: 'routines', key: 'Pulse', field: 'paused', reason: "playground's policy routines.requirePaused" },
    ]);
  });

  it('holds nothing from a policy of the target only', () => {
    const held = fieldsToHold(config, [], { name: 'production', environment: config.environments.production! }, { name: 'playground', environment: config.environments.playground! });
    expect(held).toEqual([]);
  });
});

describe('sectionsDigest', () => {
  it('is the same for the same state written in another key order, and differs when a value differs', () => {
    const a = sectionsDigest({ creditControls: { shutoffCredits: 5, downgradeCredits: 1 }, labels: [{ name: 'x', color: null }] });
    const b = sectionsDigest({ labels: [{ color: null, name: 'x' }], creditControls: { downgradeCredits: 1, shutoffCredits: 5 } });
    const c = sectionsDigest({ labels: [{ color: '#fff', name: 'x' }], creditControls: { downgradeCredits: 1, shutoffCredits: 5 } });
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});
