// `policies:` in the configuration is checked like everything else: a wrong value or a misspelt
// rule is a diagnostic at its position, before anything is read; every kind that carries credit
// values declares them, so the creditLimits rule needs no list of kinds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config.js';
import { REGISTRY } from '../../src/kinds/registry.js';

async function diagnosticsOf(yaml: string) {
  const directory = await mkdtemp(join(tmpdir(), 'steward-policies-'));
  try {
    await writeFile(join(directory, 'steward.yaml'), `version: 1\nenvironments:\n  production:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n${yaml}`);
    return (await validateConfig(directory, { processEnv: {} })).map((diagnostic) => ({ summary: diagnostic.summary, line: diagnostic.location?.line, col: diagnostic.location?.col, hint: diagnostic.hint }));
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('policies in the configuration', () => {
  it('accepts every rule, top level and per environment, with null to switch one off', async () => {
    expect(
      await diagnosticsOf(
        '    policies:\n      maxDestroy: null\n      routines: { requirePaused: true }\npolicies:\n  maxDestroy: 0\n  maxChanges: 100\n  creditLimits: { max: 5000, allowUnlimited: false }\n  routines:\n    recipientDomains: [acme.example, "*.acme.example"]\n    slackRecipientTypes: [channel]\n    requirePaused: false\n',
      ),
    ).toEqual([]);
  });

  it('refuses a negative or fractional count, at its line', async () => {
    expect(await diagnosticsOf('policies:\n  maxDestroy: -1\n')).toEqual([expect.objectContaining({ summary: expect.stringContaining('must be a whole number ≥ 0, or null to switch the rule off'), line: 7 })]);
    expect(await diagnosticsOf('policies:\n  maxChanges: 2.5\n')).toEqual([expect.objectContaining({ line: 7 })]);
  });

  it('refuses a misspelt rule, suggesting the right one', async () => {
    const [diagnostic] = await diagnosticsOf('policies:\n  maxDestroyed: 3\n');
    expect(diagnostic!.line).toBe(7);
    expect(`${diagnostic!.summary} ${diagnostic!.hint ?? ''}`).toContain('maxDestroy');
  });

  it('refuses a Slack recipient type the platform does not have, and a recipient domain that is not a domain', async () => {
    expect(await diagnosticsOf('policies:\n  routines:\n    slackRecipientTypes: [group]\n')).not.toEqual([]);
    expect(await diagnosticsOf('policies:\n  routines:\n    recipientDomains: ["@acme.example"]\n')).not.toEqual([]);
  });

  it('reports each wrong setting inside creditLimits and routines at the setting, not one error at the rule', async () => {
    const diagnostics = await diagnosticsOf(
      'policies:\n  creditLimits: {allowUnlimited: yes, max: -1}\n  routines:\n    requirePaused: yes\n    slackRecipientTypes: [channels]\n    recipientDomains: ["https://acme.example"]\n    requirePause: true\n',
    );
    expect(diagnostics).toEqual([
      { line: 7, col: 34, summary: '`policies.creditLimits.allowUnlimited` must be true or false, found "yes"', hint: 'YAML reads `yes` as text: write `true`' },
      { line: 7, col: 44, summary: '`policies.creditLimits.max` must be a number ≥ 0, or null for no maximum, found -1', hint: undefined },
      { line: 9, col: 20, summary: '`policies.routines.requirePaused` must be true, false or null, found "yes"', hint: 'YAML reads `yes` as text: write `true`' },
      { line: 10, col: 27, summary: '`policies.routines.slackRecipientTypes[0]` must be one of `channel` or `users`, found "channels"', hint: 'did you mean `channel`?' },
      {
        line: 11,
        col: 24,
        summary: '`policies.routines.recipientDomains[0]` must be a domain such as acme.example or *.acme.example, found "https://acme.example"',
        hint: 'write the domain alone: `acme.example`',
      },
      { line: 12, col: 5, summary: 'unknown key `requirePause` in `policies.routines`', hint: 'did you mean `requirePaused`?' },
    ]);
  });

  it('still refuses a rule that is neither a map nor null, once', async () => {
    expect(await diagnosticsOf('policies:\n  routines: [requirePaused]\n')).toEqual([
      expect.objectContaining({ line: 7, summary: '`policies.routines` must be a map with recipientDomains, slackRecipientTypes, recipientsMustBeUsers, requirePaused and maxRunsPerHour, or null to switch the rules off, found a list' }),
    ]);
  });

  it.each([3, 0.5])('refuses a reference as a rule, once, at the reference (the variable is %s)', async (value) => {
    expect(await diagnosticsOf(`    variables: {f: ${value}}\npolicies:\n  maxDestroy: \${var.f}\n`)).toEqual([
      {
        line: 8,
        col: 15,
        summary: 'references are not allowed in policies (they are the same for every environment)',
        hint: 'to set a rule for one environment, write it under `environments.NAME.policies`',
      },
    ]);
  });

  it('refuses a reference inside a rule or in an environment\'s policies, without resolving it', async () => {
    const diagnostics = await diagnosticsOf('    policies:\n      maxChanges: ${env.MAXC}\npolicies:\n  creditLimits:\n    allowUnlimited: ${env.ALLOW}\n  routines:\n    recipientDomains: ["${var.dom}"]\n');
    expect(diagnostics.map(({ line, col, summary }) => ({ line, col, summary }))).toEqual([
      { line: 7, col: 19, summary: 'references are not allowed in policies' },
      { line: 10, col: 21, summary: 'references are not allowed in policies (they are the same for every environment)' },
      { line: 12, col: 24, summary: 'references are not allowed in policies (they are the same for every environment)' },
    ]);
  });
});

describe('credit values', () => {
  it('are declared by every kind that writes them', () => {
    const declaring = [...REGISTRY.values()].filter((kind) => kind.credits !== undefined).map((kind) => kind.kind);
    expect(declaring).toEqual(['creditControls', 'userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits']);
  });
});
