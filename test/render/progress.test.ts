import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlanStep } from '../../src/model/plan.js';
import { formatDuration } from '../../src/domain/numbers.js';
import { ApplyProgress, formatClock, ReadProgress } from '../../src/render/progress.js';

const CLEAR = '\r\x1b[2K';

function labelStep(name: string): PlanStep {
  return { id: `labels/${name}`, kind: 'labels', key: name, action: 'create', dependsOn: [], ref: {}, after: { name } };
}

/** Progress writing into a string, on a virtual clock driven by vitest's fake timers. */
function capture() {
  let text = '';
  return { write: (chunk: string) => void (text += chunk), text: () => text, reset: () => void (text = '') };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('durations', () => {
  it('reads as an estimate, never falsely exact', () => {
    expect(formatDuration(400)).toBe('less than a second');
    expect(formatDuration(40_000)).toBe('about 40 seconds');
    expect(formatDuration(289_000)).toBe('about 5 minutes');
    expect(formatDuration(3 * 3_600_000)).toBe('about 3 hours');
    expect(formatClock(65_000)).toBe('1:05');
    expect(formatClock(3_725_000)).toBe('1:02:05');
  });
});

describe('apply progress on a terminal', () => {
  it('redraws one status line in place and clears it before each step line', () => {
    const out = capture();
    const steps = [labelStep('a'), labelStep('b'), labelStep('c')];
    const progress = new ApplyProgress(steps, (remaining) => remaining.length * 1000, { write: out.write, live: true, color: false, now: Date.now });
    progress.start();
    progress.started([steps[0]!]);
    expect(out.text().endsWith(`${CLEAR}[0/3] label "a" · 0:00 elapsed, about 3 seconds left`)).toBe(true);
    out.reset();
    vi.advanceTimersByTime(2_000);
    progress.settledStep({ step: steps[0]!, outcome: { status: 'done' } });
    expect(out.text().endsWith(`${CLEAR}  done    + label "a"\n${CLEAR}[1/3] label "a" · 0:02 elapsed, about 2 seconds left`)).toBe(true);
    out.reset();
    progress.stop();
    expect(out.text()).toBe(CLEAR);
  });
});

describe('apply progress without a terminal', () => {
  it('prints each step as it settles and a heartbeat after 15 s of silence', () => {
    const out = capture();
    const steps = [labelStep('a'), labelStep('b')];
    const progress = new ApplyProgress(steps, (remaining) => remaining.length * 60_000, { write: out.write, live: false, color: false, now: Date.now });
    progress.start();
    progress.started([steps[0]!]);
    progress.settledStep({ step: steps[0]!, outcome: { status: 'done', detail: 'confirmed by reading back' } });
    expect(out.text()).toBe('  done    + label "a" (confirmed by reading back)\n');
    progress.started([steps[1]!]);
    vi.advanceTimersByTime(14_000);
    expect(out.text().split('\n')).toHaveLength(2);
    vi.advanceTimersByTime(1_000);
    expect(out.text().split('\n')[1]).toBe('… 1 of 2 steps done, 0:15 elapsed, about 60 seconds left; working on label "b"');
    progress.stop();
  });

  it('tells a rate-limit wait at once, and leaves the steps not started to the report', () => {
    const out = capture();
    const steps = [labelStep('a'), labelStep('b')];
    const progress = new ApplyProgress(steps, () => 0, { write: out.write, live: false, color: false, now: Date.now });
    progress.start();
    progress.clientEvent({ type: 'wait', reason: 'rate-limit', ms: 12_000, operation: 'creating label "a"' });
    expect(out.text()).toContain('… 0 of 2 steps done, 0:00 elapsed, about 12 seconds left; waiting 12s: the server\'s rate limit answered 429 (creating label "a")\n');
    out.reset();
    progress.settledStep({ step: steps[1]!, outcome: { status: 'skipped', reason: 'not started: apply was interrupted (SIGINT)', notStarted: true } });
    expect(out.text()).toBe('');
    progress.stop();
  });
});

describe('waits, counted down', () => {
  it('on a terminal, the seconds left of a rate-limit wait go down as the line is redrawn, and so does the time left', () => {
    const out = capture();
    const progress = new ApplyProgress([labelStep('a')], () => 0, { write: out.write, live: true, color: false, now: Date.now });
    progress.start();
    progress.clientEvent({ type: 'wait', reason: 'rate-limit', ms: 59_000, operation: 'updating 5 user credit limits' });
    vi.advanceTimersByTime(16_000);
    expect(out.text().endsWith(`${CLEAR}[0/1] waiting 43s: the server's rate limit answered 429 (updating 5 user credit limits) · 0:16 elapsed, about 43 seconds left`)).toBe(true);
    progress.stop();
  });

  it('tells a long wait for the request budget (another command used it up) at once while reading; not the routine second', () => {
    const out = capture();
    const progress = new ReadProgress({ write: out.write, live: false, color: false, now: Date.now });
    progress.start();
    progress.clientEvent({ type: 'wait', reason: 'pacing', ms: 900, operation: 'listing labels' });
    expect(out.text()).toBe('');
    progress.clientEvent({ type: 'wait', reason: 'pacing', ms: 58_000, operation: 'listing labels' });
    expect(out.text()).toBe('… waiting 58s to stay under the request budget\n');
    progress.stop();
  });
});

describe('reading progress', () => {
  it('stays quiet for quick commands and tells the page being read after 2 s', () => {
    const out = capture();
    const progress = new ReadProgress({ write: out.write, live: false, color: false, now: Date.now });
    progress.start();
    progress.clientEvent({ type: 'page', operation: 'listing user credit limits', page: 1, totalPages: 50 });
    vi.advanceTimersByTime(1_500);
    expect(out.text()).toBe('');
    vi.advanceTimersByTime(1_000);
    progress.clientEvent({ type: 'page', operation: 'listing user credit limits', page: 12, totalPages: 50 });
    expect(out.text()).toBe('… reading user credit limits: page 12 of 50\n');
    progress.stop();
  });

  it('on a terminal, redraws the page on the status line', () => {
    const out = capture();
    const progress = new ReadProgress({ write: out.write, live: true, color: false, now: Date.now });
    progress.start();
    vi.advanceTimersByTime(3_000);
    progress.clientEvent({ type: 'page', operation: 'listing routines', page: 3, totalPages: undefined });
    expect(out.text().endsWith(`${CLEAR}reading routines: page 3 · 0:03 elapsed`)).toBe(true);
    progress.stop();
  });
});
