import { describe, expect, it } from 'vitest';
import type { StewardConfig } from '../../src/config/types.js';
import type { StewardError } from '../../src/errors.js';
import { checkTargets, filterSteps, parseSelectors, targetedKinds } from '../../src/engine/targeting.js';
import { everyActionPlan } from './everyAction.js';

const ids = (targets: string[], excludes: string[] = []) =>
  filterSteps(everyActionPlan().plan.steps, {
    include: parseSelectors(targets, '--target'),
    exclude: parseSelectors(excludes, '--exclude'),
  }).steps.map((step) => step.id);

describe('targeting', () => {
  it('reads only the targeted kinds; labels bring their document and folder links', () => {
    expect(targetedKinds({ include: parseSelectors(['labels'], '--target'), exclude: [] })).toEqual(['labels', 'documentLabels', 'folderLabels']);
    expect(targetedKinds({ include: parseSelectors(['folderLabels'], '--target'), exclude: [] })).toEqual(['labels', 'folderLabels']);
    // Links depend on their label's creation, so labels are planned with them.
    expect(targetedKinds({ include: parseSelectors(['documentLabels'], '--target'), exclude: [] })).toEqual(['labels', 'documentLabels']);
    expect(targetedKinds({ include: [], exclude: parseSelectors(['routines', 'userCreditLimits'], '--exclude') })).toEqual([
      'creditControls',
      'labels',
      'userGroupCreditLimits',
      'entityGroupCreditLimits',
      'documentLabels',
      'folderLabels',
    ]);
    expect(targetedKinds({ include: [], exclude: [] })).toBeUndefined();
  });

  it('keeps a named object and what it depends on', () => {
    expect(ids(['documentLabels/certified'])).toEqual(['labels/certified', 'documentLabels/d1/certified']);
    expect(ids(['routines/Pipeline check'])).toEqual(['routines//Pipeline check']);
    expect(ids(['userCreditLimits/ADA@acme.example'])).toEqual(['userCreditLimits/u-ada']);
  });

  it('keeps only links when the kind documentLabels is targeted, with the label creations they need', () => {
    expect(ids(['documentLabels'])).toEqual([
      'labels/certified',
      'documentLabels/d1/certified',
      'documentLabels/d9/obsolete',
    ]);
  });

  it('warns about a declared object that needs no change', () => {
    const { warnings } = filterSteps(everyActionPlan().plan.steps, { include: parseSelectors(['routines/Nope'], '--target'), exclude: [] });
    expect(warnings.map((warning) => warning.message)).toEqual([
      '--target routines/Nope matches no change: that object already matches the configuration',
    ]);
  });


  it('leaves out excluded objects', () => {
    const all = everyActionPlan().plan.steps.map((step) => step.id);
    expect(ids([], ['routines/Old experiment'])).toEqual(all.filter((id) => id !== 'routines//Old experiment'));
  });

  it('names the kinds when one is misspelt', () => {
    expect(() => parseSelectors(['routine/x'], '--target')).toThrow('--target routine/x: unknown kind "routine"');
    try {
      parseSelectors(['lables'], '--exclude');
    } catch (error) {
      expect((error as { hint: string }).hint).toMatch(/^did you mean `labels`\?/);
    }
  });
});

describe('a --target or --exclude that names nothing', () => {
  const config: StewardConfig = {
    version: 1,
    environments: { production: { baseUrl: 'https://acme.example.com', tokenEnv: 'STEWARD_PRODUCTION_TOKEN' } },
    routines: [{ name: 'Pipeline check', prompt: 'p', schedule: '0 9 ? * MON *', timezone: 'UTC', modelId: 'm', destination: { type: 'email', recipientEmails: [], userGroupIds: [] } }],
    labels: [{ name: 'board-kpis', renamedFrom: ['legacy-kpis'] }],
    userCreditLimits: [{ email: 'ada@acme.example', creditLimit: 10 }],
    prune: { labels: true },
  };
  const check = (targets: string[], excludes: string[] = []) =>
    checkTargets({ include: parseSelectors(targets, '--target'), exclude: parseSelectors(excludes, '--exclude') }, config);
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return { message: (error as StewardError).message, hint: (error as StewardError).hint, code: (error as StewardError).code };
    }
    throw new Error('expected a refusal');
  };

  it('accepts names the config declares, case-insensitively, and former names of labels', () => {
    expect(() => check(['routines/pipeline CHECK', 'labels/legacy-kpis', 'userCreditLimits/ADA@acme.example', 'documentLabels/board-kpis'])).not.toThrow();
  });

  it('refuses, before anything is read, a name the config does not declare in a kind it does not prune, with a did-you-mean', () => {
    expect(refusal(() => check(['routines/Pipeline chek']))).toEqual({
      code: 'cli.target',
      message: '--target routines/Pipeline chek: the configuration declares no routine "Pipeline chek"',
      hint: 'did you mean `--target routines/Pipeline check`?',
    });
    expect(refusal(() => check([], ['routines/No such routine']))).toMatchObject({
      message: '--exclude routines/No such routine: the configuration declares no routine "No such routine"',
      hint: 'it declares "Pipeline check"',
    });
    expect(refusal(() => check(['creditControls/x'])).message).toBe('--target creditControls/x: credit controls are one object and have no name');
  });

  it('leaves a name in a pruned kind to the live state: an object prune deletes is a target, nothing at all is an error', () => {
    const targeting = check(['labels/obsolete']);
    const steps = everyActionPlan().plan.steps;
    expect(filterSteps(steps, targeting).steps.map((step) => step.id)).toContain('labels/obsolete');
    const nothing = check(['labels/never-existed']);
    expect(refusal(() => filterSteps(steps, nothing)).message).toBe(
      '--target labels/never-existed: names nothing: the configuration does not declare it, and the instance has no such label for prune to delete',
    );
  });
});
