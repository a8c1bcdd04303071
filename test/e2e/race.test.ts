// Two applies of examples/gitops started at the same moment against one emulator, as two CI runs
// or a person and a pipeline would: both plan from the same live state, so both create each new
// routine. Twenty times over, in both emulator profiles: exactly one of every routine is left,
// both runs exit 0, and their reports add up to what happened (a lost race is reported, not an
// error). The rule itself, over every interleaving, is tested in test/plan/routineDuplicates.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/plan.js';
import { EMULATOR_PROFILES } from '../../src/emulator/index.js';
import { gitopsAgainstDemo, type Result, type Steward } from './helpers.js';

const RUNS = 20;
/** Pairs run side by side, each against an emulator of its own, to keep twenty of them quick. */
const SIDE_BY_SIDE = 5;
const LATENCY_MS = 20;

interface ReportedStep {
  id: string;
  action: string;
  status: string;
  detail?: string;
}

let stewards: Steward[] = [];
afterEach(async () => {
  await Promise.all(stewards.map((steward) => steward.emulator.close()));
  stewards = [];
});

/** The emulator has no rate limit: lift the copy's budget so that latency, not pacing, sets the pace. */
async function unpaced(directory: string): Promise<void> {
  const path = join(directory, 'environments.yaml');
  await writeFile(path, (await readFile(path, 'utf8')).replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 600000'));
}

function stepsOf(result: Result): ReportedStep[] {
  return (JSON.parse(result.out) as { results: ReportedStep[] }).results;
}

/** A routine step id is `routines/<owner>/<name>`; a removed duplicate adds `#<routine id>`. */
const nameOf = (id: string) => id.split('/').slice(2).join('/').replace(/#[^#]*$/, '');

/**
 * Per routine name, what a run's report says it did: routines it made (creates and
 * replacements done) and duplicates it removed (steps it added beyond the plan, one per copy,
 * right after the step that made that routine).
 */
function tally(steps: ReportedStep[]): { made: Map<string, number>; removed: Map<string, number> } {
  const made = new Map<string, number>();
  const removed = new Map<string, number>();
  const makers = new Set(steps.filter((step) => step.id.startsWith('routines/') && (step.action === 'create' || step.action === 'replace')).map((step) => step.id));
  const add = (counts: Map<string, number>, id: string) => counts.set(nameOf(id), (counts.get(nameOf(id)) ?? 0) + 1);
  for (const step of steps) {
    if (makers.has(step.id) && step.status === 'done') add(made, step.id);
    const maker = step.id.replace(/#[^#]*$/, '');
    if (step.id !== maker && makers.has(maker) && step.action === 'delete') {
      // The other run may have removed it first (404, judged by reading back): not counted twice.
      expect(['done', 'already-applied']).toContain(step.status);
      if (step.status === 'done') {
        expect(step.detail).toMatch(/^removed \S+, (which this run created, as a duplicate: a concurrent run created the same routine|a duplicate that a concurrent run created meanwhile)/);
        add(removed, step.id);
      }
    }
  }
  return { made, removed };
}

/** One run: two applies started together against a fresh copy of the demo dataset; what they left and said. */
async function race(steward: Steward, run: number): Promise<number> {
  steward.emulator.reset();
  const results = await Promise.all([steward.apply(undefined, { json: true }), steward.apply(undefined, { json: true })]);
  for (const result of results) expect(result.code, `run ${run}: ${result.err}`).toBe(0);

  const routines = steward.emulator.state.snapshot().routines.map((routine) => `${routine.ownerId}/${routine.name}`);
  expect(routines.filter((key, index) => routines.indexOf(key) !== index), `run ${run}: duplicates left`).toEqual([]);

  // Between them, the two reports account for every copy: made minus removed is the one left.
  const made = new Map<string, number>();
  const removed = new Map<string, number>();
  for (const result of results) {
    const counts = tally(stepsOf(result));
    for (const [name, count] of counts.made) made.set(name, (made.get(name) ?? 0) + count);
    for (const [name, count] of counts.removed) removed.set(name, (removed.get(name) ?? 0) + count);
  }
  for (const [name, count] of made) expect(count - (removed.get(name) ?? 0), `run ${run}: routine "${name}"`).toBe(1);

  // A label name is unique on the server: of two creates one is answered 409, which is judged
  // by reading back, so at most one report says the run created it and the other finds it done.
  const labelCreates = results.flatMap((result) => stepsOf(result).filter((step) => step.id.startsWith('labels/') && step.action === 'create'));
  for (const id of new Set(labelCreates.map((step) => step.id))) {
    const statuses = labelCreates.filter((step) => step.id === id).map((step) => step.status).sort();
    expect(statuses.filter((status) => status === 'done').length, `run ${run}: ${id}`).toBeLessThanOrEqual(1);
    expect(statuses.every((status) => status === 'done' || status === 'already-applied'), `run ${run}: ${id}`).toBe(true);
  }
  return [...removed.values()].reduce((sum, count) => sum + count, 0);
}

describe.each(EMULATOR_PROFILES)('two applies of examples/gitops started together (emulator profile %s)', (profile) => {
  // About 5 s of CPU per profile; the time limit leaves room for a busy machine.
  it(`leave exactly one of every routine, ${RUNS} times over, and each says what it did`, { timeout: 60_000 }, async () => {
    stewards = await Promise.all(Array.from({ length: SIDE_BY_SIDE }, () => gitopsAgainstDemo({ profile, latencyMs: LATENCY_MS })));
    await Promise.all(stewards.map((steward) => unpaced(steward.directory)));
    let racesLost = 0;
    for (let first = 1; first <= RUNS; first += SIDE_BY_SIDE) {
      const removals = await Promise.all(stewards.map((steward, index) => race(steward, first + index)));
      racesLost += removals.reduce((sum, count) => sum + count, 0);
    }
    // The runs did race: copies were made and removed.
    expect(racesLost).toBeGreaterThan(0);

    const plan = await stewards[0]!.plan();
    expect(plan.code, plan.err).toBe(EXIT.ok);
    expect(plan.out).toContain('No changes.');
  });
});
