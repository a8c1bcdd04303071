// `${var.NAME}` / `${env.NAME}` references: typing, escaping, and the problems they report.
import { describe, expect, it } from 'vitest';
import { interpolate, parseTemplate, type InterpolationScope } from '../../src/config/interpolate.js';
import { pathKey } from '../../src/config/positions.js';

const production: InterpolationScope = {
  environment: { name: 'production', variables: { salesModelId: '5b0e7a52', limit: 300, paused: true, owner: null } },
  processEnv: { TEAM: 'finance' },
};

describe('parseTemplate', () => {
  it('splits text and references, turning $${ into a literal ${', () => {
    expect(parseTemplate('cost $${var.x} for ${var.team} ($5)')).toEqual([
      { kind: 'text', text: 'cost ${var.x} for ' },
      { kind: 'reference', reference: { namespace: 'var', name: 'team', text: '${var.team}' } },
      { kind: 'text', text: ' ($5)' },
    ]);
  });

  it('marks malformed and unterminated references', () => {
    expect(parseTemplate('${owner} and ${var.x')).toEqual([
      { kind: 'malformed', text: '${owner}', unterminated: false },
      { kind: 'text', text: ' and ' },
      { kind: 'malformed', text: '${var.x', unterminated: true },
    ]);
  });
});

describe('interpolate', () => {
  it('gives a value that is exactly one reference the variable type', () => {
    const result = interpolate({ creditLimit: '${var.limit}', paused: '${var.paused}', unlimited: '${var.owner}' }, production);
    expect(result.value).toEqual({ creditLimit: 300, paused: true, unlimited: null });
    expect(result.problems).toEqual([]);
  });

  it('embeds references in text as strings and reads the process environment', () => {
    const result = interpolate({ description: 'Model ${var.salesModelId}, limit ${var.limit}, team ${env.TEAM}' }, production);
    expect(result.value).toEqual({ description: 'Model 5b0e7a52, limit 300, team finance' });
  });

  it('leaves keys, numbers and text without references untouched', () => {
    const value = { '${var.limit}': 1, list: ['plain', 2, false, null], price: '$5' };
    expect(interpolate(value, production).value).toEqual(value);
  });

  it('records which paths were substituted', () => {
    const result = interpolate({ routines: [{ modelId: '${var.salesModelId}', name: 'Digest' }] }, production);
    expect([...result.substituted.keys()]).toEqual([pathKey(['routines', 0, 'modelId'])]);
    expect(result.substituted.get(pathKey(['routines', 0, 'modelId']))?.references[0]?.name).toBe('salesModelId');
  });

  it('reports an undefined variable with a suggestion and leaves the value as written', () => {
    const result = interpolate({ modelId: '${var.salesModelID}' }, production);
    expect(result.value).toEqual({ modelId: '${var.salesModelID}' });
    expect(result.unresolved.has(pathKey(['modelId']))).toBe(true);
    expect(result.problems).toEqual([
      {
        path: ['modelId'],
        text: '${var.salesModelID}',
        code: 'reference.undefined',
        summary: 'variable `salesModelID` is not defined in environment `production`',
        hint: 'did you mean `salesModelId`?',
      },
    ]);
  });

  it('reports an unset environment variable', () => {
    const result = interpolate({ description: 'by ${env.OWNER}' }, production);
    expect(result.problems.map((problem) => [problem.code, problem.summary])).toEqual([['reference.undefined', 'environment variable `OWNER` is not set']]);
  });

  it('refuses a token variable, without reading its value', () => {
    const result = interpolate({ description: '${env.STEWARD_TOKEN}' }, {
      ...production,
      processEnv: { STEWARD_TOKEN: 'secret-value' },
      tokenVariables: new Map([['STEWARD_TOKEN', 'production']]),
    });
    expect(result.value).toEqual({ description: '${env.STEWARD_TOKEN}' });
    expect(JSON.stringify(result.problems)).not.toContain('secret-value');
    expect(result.problems[0]?.code).toBe('reference.secret');
  });

  it('forbids variables where variables are defined', () => {
    const result = interpolate({ baseUrl: '${var.url}' }, { processEnv: {} }, { basePath: ['environments', 'production'], variablesAllowed: false });
    expect(result.problems[0]).toMatchObject({ path: ['environments', 'production', 'baseUrl'], code: 'reference.scope' });
  });

  it('does not embed null in text', () => {
    const result = interpolate({ description: 'owner: ${var.owner}' }, production);
    expect(result.problems[0]).toMatchObject({ code: 'reference.null', text: '${var.owner}' });
  });

  it('defers variable references when no environment is selected, without reporting them', () => {
    const result = interpolate({ modelId: '${var.salesModelId}' }, { processEnv: {} });
    expect(result.problems).toEqual([]);
    expect(result.unresolved.has(pathKey(['modelId']))).toBe(true);
  });

  it('reports every malformed reference of a value', () => {
    const result = interpolate({ description: '${team} ${var.x' }, production);
    expect(result.problems.map((problem) => problem.summary)).toEqual(['`${team}` is not a valid reference', '`${var.x` is missing its closing `}`']);
  });
});
