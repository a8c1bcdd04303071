// Environment-specific ids: written as variable references on export, translated between
// environments on promotion, and live text that looks like a reference kept as text.
import { describe, expect, it } from 'vitest';
import type { RoutineConfig } from '../../src/config/types.js';
import { interpolate } from '../../src/config/interpolate.js';
import { variablesHolding } from '../../src/config/environmentIds.js';
import { escapeReferences, referVariables, translateIds } from '../../src/export/ids.js';

const PRODUCTION = { name: 'production', variables: { salesModelId: 'm-prod-sales', salesBranchId: 'b-prod', financeGroup: 'g-prod-fin', limit: 750 } };
const PLAYGROUND = { name: 'playground', variables: { salesModelId: 'm-play-sales', salesBranchId: 'b-play', financeGroup: 'g-play-fin' } };

function routine(overrides: Partial<RoutineConfig> = {}): RoutineConfig {
  return {
    name: 'Digest',
    prompt: 'Summarise.',
    schedule: '0 9 ? * MON *',
    timezone: 'UTC',
    modelId: 'm-prod-sales',
    branchId: 'b-prod',
    destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: ['g-prod-fin'] },
    ...overrides,
  };
}

describe('export: ids as variable references', () => {
  it('refers to the model, branch and user groups through the variables that hold them', () => {
    const { sections, warnings } = referVariables({ routines: [routine()] }, PRODUCTION);
    expect(sections.routines![0]).toMatchObject({
      modelId: '${var.salesModelId}',
      branchId: '${var.salesBranchId}',
      destination: { userGroupIds: ['${var.financeGroup}'] },
    });
    expect(warnings).toEqual([]);
  });

  it('keeps an id no variable holds literal, and says so', () => {
    const { sections, warnings } = referVariables({ routines: [routine({ modelId: 'm-other', branchId: null })] }, PRODUCTION);
    expect(sections.routines![0]!.modelId).toBe('m-other');
    expect(sections.routines![0]!.branchId).toBeNull();
    expect(warnings).toEqual([
      'routine "Digest": modelId m-other is written as a literal id because no variable of environment production holds it; the file will not work against another environment until you declare one (e.g. under environments.production.variables) and use ${var.NAME}',
    ]);
  });

  it('picks the first variable declared when several hold the id; numbers never match', () => {
    expect(variablesHolding({ b: 'x', a: 'x', n: 750 }, 'x')).toEqual(['b', 'a']);
    expect(variablesHolding({ n: 750 }, '750')).toEqual([]);
  });
});

describe('promotion: ids from one environment to another', () => {
  it('turns the source\'s ids into the target\'s through variables of the same name', () => {
    const sections = translateIds({ routines: [routine({ modelId: 'm-play-sales', branchId: 'b-play', destination: { type: 'email', recipientEmails: [], userGroupIds: ['g-play-fin'] } })] }, PLAYGROUND, PRODUCTION);
    expect(sections.routines![0]).toMatchObject({ modelId: 'm-prod-sales', branchId: 'b-prod', destination: { userGroupIds: ['g-prod-fin'] } });
  });

  it('refuses an id no variable of the source names, naming the routine and the id', () => {
    expect(() => translateIds({ routines: [routine({ modelId: 'm-unknown' })] }, PLAYGROUND, PRODUCTION)).toThrow(
      'routine "Digest": modelId m-unknown of playground is not the value of any variable of environment playground, so steward cannot tell what it is in production',
    );
  });

  it('refuses a variable the target does not define, and variables that disagree about the target\'s id', () => {
    const target = { name: 'production', variables: { other: 'x' } };
    expect(() => translateIds({ routines: [routine({ modelId: 'm-play-sales', branchId: null })] }, PLAYGROUND, target)).toThrow(
      'is ${var.salesModelId}, which environment production does not define as an id',
    );
    const source = { name: 'playground', variables: { a: 'm-1', b: 'm-1' } };
    expect(() => translateIds({ routines: [routine({ modelId: 'm-1', branchId: null })] }, source, { name: 'production', variables: { a: 'p-1', b: 'p-2' } })).toThrow(
      'is held by variables a, b, whose values in production differ (p-1, p-2)',
    );
  });
});

describe('user group limits SCIM does not name (by id)', () => {
  it('refer to the id through the variable that holds it; one no variable holds stays literal, with a warning', () => {
    const limits = [{ userGroupId: 'g-prod-fin', creditLimit: 1500 }, { userGroupId: 'g-prod-ops', creditLimit: 400 }, { group: 'Analysts', creditLimit: 100 }];
    const { sections, warnings } = referVariables({ userGroupCreditLimits: limits }, PRODUCTION);
    expect(sections.userGroupCreditLimits).toEqual([{ userGroupId: '${var.financeGroup}', creditLimit: 1500 }, { userGroupId: 'g-prod-ops', creditLimit: 400 }, { group: 'Analysts', creditLimit: 100 }]);
    expect(warnings).toEqual([
      'user group credit limit: userGroupId g-prod-ops is written as a literal id because SCIM does not name it (or two groups share its name) and no variable of environment production holds it; the file will not work against another environment until you name the group by `group:` or use ${var.NAME}',
    ]);
  });

  it('become the target\'s ids through variables of the same name', () => {
    const sections = translateIds({ userGroupCreditLimits: [{ userGroupId: 'g-play-fin', creditLimit: 1500 }] }, PLAYGROUND, PRODUCTION);
    expect(sections.userGroupCreditLimits).toEqual([{ userGroupId: 'g-prod-fin', creditLimit: 1500 }]);
  });
});

describe('the kinds in the order of the file\'s sections', () => {
  const sections = {
    routines: [routine({ modelId: 'm-other', branchId: null, destination: { type: 'email' as const, recipientEmails: ['ada@acme.example'] } })],
    userGroupCreditLimits: [{ userGroupId: 'g-other', creditLimit: 400 }],
  };

  it('warn of literal ids: user group limits before routines', () => {
    const { warnings } = referVariables(sections, PRODUCTION);
    expect(warnings.map((warning) => warning.slice(0, warning.indexOf(':')))).toEqual(['user group credit limit', 'routine "Digest"']);
  });

  it('are refused at the first id no variable maps: a user group limit\'s before a routine\'s', () => {
    expect(() => translateIds(sections, PRODUCTION, PLAYGROUND)).toThrow('user group credit limit of group g-other in production');
  });
});

describe('live text that looks like a reference', () => {
  it('is written so that loading it gives the text back', () => {
    const text = { prompt: 'Use ${var.salesModelId} and $${x} literally', list: ['${env.HOME}'], n: 3, nothing: null };
    const escaped = escapeReferences(text);
    expect(escaped).toEqual({ prompt: 'Use $${var.salesModelId} and $$${x} literally', list: ['$${env.HOME}'], n: 3, nothing: null });
    const loaded = interpolate(escaped, { environment: { name: 'production', variables: {} }, processEnv: {} });
    expect(loaded.problems).toEqual([]);
    expect(loaded.value).toEqual(text);
  });
});
