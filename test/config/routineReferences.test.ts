// What a routine refers to by name, checked before anything is read: the model by exactly one of
// `model` and `modelId`, the branch by at most one of `branch` and `branchId`, and former names
// (`renamedFrom`) that address one live routine of the same owner without doubt.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config.js';
import type { Diagnostic } from '../../src/config/types.js';

let directory: string | undefined;
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

const HEAD = `version: 1
environments:
  production:
    baseUrl: https://acme.example.com
    tokenEnv: STEWARD_PRODUCTION_TOKEN
routines:
`;

/** A routine as YAML lines (after `  - `), with the fields every routine needs. */
function routine(name: string, extra: string[] = ['model: Sales']): string {
  return [`  - name: ${name}`, '    prompt: Summarise.', '    schedule: "0 8 ? * MON *"', '    timezone: UTC', ...extra.map((line) => `    ${line}`), '    destination: {type: slack, recipientId: C0PIPELINE1, slackRecipientType: channel}', ''].join('\n');
}

async function findings(...routines: string[]): Promise<Pick<Diagnostic, 'code' | 'summary' | 'location'>[]> {
  directory = await mkdtemp(join(tmpdir(), 'steward-routine-references-'));
  await writeFile(join(directory, 'steward.yaml'), HEAD + routines.join(''));
  return (await validateConfig(directory, { processEnv: {} })).map(({ code, summary, location }) => ({ code, summary, ...(location === undefined ? {} : { location: { ...location, file: 'steward.yaml' } }) }));
}

describe('the model and branch of a routine', () => {
  it('accepts a model and a branch by name, or by id', async () => {
    expect(await findings(routine('A', ['model: Sales', 'branch: forecast-v2']), routine('B', ['modelId: 5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30', 'branchId: null']))).toEqual([]);
  });

  it('wants exactly one of model and modelId', async () => {
    const both = await findings(routine('A', ['model: Sales', 'modelId: 5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30']));
    const neither = await findings(routine('B', []));
    for (const found of [both, neither]) {
      expect(found.map((finding) => finding.summary)).toEqual([expect.stringContaining('must name the model by exactly one of `model` and `modelId`')]);
    }
  });

  it('refuses a branch named both ways, and names that are blank or padded', async () => {
    expect(await findings(routine('A', ['model: " Sales"', 'branch: forecast-v2', 'branchId: null']))).toEqual([
      { code: 'routine.padded', summary: 'model name " Sales" has spaces before or after it', location: { file: 'steward.yaml', line: 11, col: 12 } },
      { code: 'routine.branch', summary: 'a routine names its branch by one of `branch` (a name) and `branchId`, not both', location: { file: 'steward.yaml', line: 12, col: 5 } },
    ]);
  });
});

describe('renamedFrom of routines', () => {
  it('accepts former names no routine of the same owner declares, even one another owner declares', async () => {
    expect(await findings(routine('New', ['model: Sales', 'renamedFrom: [Old]']), routine('Old', ['model: Sales', 'owner: grace@acme.example']))).toEqual([]);
  });

  it('refuses its own name, a declared routine of the same owner, and one former name claimed twice', async () => {
    const found = await findings(
      routine('New', ['model: Sales', 'renamedFrom: [New, Kept, Old]']),
      routine('Kept'),
      routine('Other', ['model: Sales', 'renamedFrom: [Old]']),
    );
    expect(found.map(({ code, summary }) => ({ code, summary }))).toEqual([
      { code: 'routine.renameSelf', summary: 'routine `New` lists its own name in `renamedFrom`' },
      { code: 'routine.renameCollision', summary: expect.stringMatching(/^routine `New` is renamed from `Kept`, which is also declared at .*steward\.yaml:\d+:\d+$/) },
      { code: 'routine.renameAmbiguous', summary: expect.stringMatching(/^`Old` is renamed to both `New` \(at .*steward\.yaml:\d+:\d+\) and `Other`$/) },
    ]);
  });
});
