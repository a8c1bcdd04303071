import { describe, expect, it } from 'vitest';
import { filterSteps, parseSelectors, targetedKinds } from '../../src/plan/targeting.js';
import { everyActionPlan } from './everyAction.js';

const ids = (targets: string[], excludes: string[] = []) =>
  filterSteps(everyActionPlan().plan.steps, {
    include: parseSelectors(targets, '--target'),
    exclude: parseSelectors(excludes, '--exclude'),
  }).steps.map((step) => step.id);

describe('targeting', () => {
  it('reads only the targeted kinds; labels bring their document links', () => {
    expect(targetedKinds({ include: parseSelectors(['labels'], '--target'), exclude: [] })).toEqual(['labels', 'documentLabels']);
    // Links depend on their label's creation, so labels are planned with them.
    expect(targetedKinds({ include: parseSelectors(['documentLabels'], '--target'), exclude: [] })).toEqual(['labels', 'documentLabels']);
    expect(targetedKinds({ include: [], exclude: parseSelectors(['routines', 'userCreditLimits'], '--exclude') })).toEqual([
      'creditControls',
      'labels',
      'documentLabels',
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

  it('warns about a named selector that matches nothing', () => {
    const { warnings } = filterSteps(everyActionPlan().plan.steps, { include: parseSelectors(['routines/Nope'], '--target'), exclude: [] });
    expect(warnings.map((warning) => warning.message)).toEqual([
      '--target routines/Nope matches no change: either that object needs none, or the name is misspelt',
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
