// Progress while a command runs, so a long apply or read never looks like a hang. Each step's
// outcome is printed the moment it is known. On a terminal one status line (done/total, current
// step, elapsed, time left) is redrawn in place and cleared before every normal line; elsewhere
// (CI logs, pipes) a heartbeat line appears at least every 15 s while nothing else is printed,
// and at once when steward starts waiting for the rate limit or a retry.
import type { ClientEvent } from '../api/client.js';
import { unreachable } from '../errors.js';
import type { StepResult } from '../engine/executor.js';
import type { PlanStep } from '../model/plan.js';
import { terminalText } from './inert.js';
import { outcomeLine } from './human.js';
import { stepTitle } from './describe.js';
import { formatDuration } from '../domain/numbers.js';

export interface ProgressOutput {
  /** Where progress goes (a whole line ends in a newline; the status line does not). */
  write: (text: string) => void;
  /** A terminal: the status line is redrawn in place. */
  live: boolean;
  color: boolean;
  /** Milliseconds; injectable for tests. */
  now?: () => number;
  /** Without a terminal, at least one line this often while nothing else is printed (default 15 s). */
  heartbeatMs?: number;
  /** How often the status line and the heartbeat are looked at (default 1 s). */
  tickMs?: number;
}

const CLEAR_LINE = '\r\x1b[2K';

/** A pacing wait this long is told (shorter ones are the request budget's routine spacing). */
const LONG_PACING_MS = 5_000;

/** "0:42", "1:03:05" */
export function formatClock(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}


/**
 * What a client wait is for, in words, with the seconds still to wait: `leftMs` counts down as
 * the line is redrawn (it was the wait's whole length, frozen for a minute).
 */
function waitingFor(event: Extract<ClientEvent, { type: 'wait' }>, leftMs = event.ms): string {
  const seconds = Math.max(0, Math.round(leftMs / 1000));
  switch (event.reason) {
    case 'rate-limit':
      return `waiting ${seconds}s: the server's rate limit answered 429 (${terminalText(event.operation)})`;
    case 'retry':
      return `waiting ${seconds}s before retrying ${terminalText(event.operation)}`;
    case 'pacing':
      return `waiting ${seconds}s to stay under the request budget`;
    default:
      return unreachable(event.reason);
  }
}

/** A status line redrawn in place on a terminal, or heartbeat lines elsewhere. Shared by apply and plan progress. */
class Ticker {
  private readonly now: () => number;
  private readonly startedAt: number;
  private lastLineAt: number;
  private shown = false;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly output: ProgressOutput,
    private readonly status: () => string,
    private readonly heartbeat: () => string,
    /** Nothing is drawn before this much time has passed (quick commands stay quiet). */
    private readonly quietMs = 0,
  ) {
    this.now = output.now ?? Date.now;
    this.startedAt = this.now();
    this.lastLineAt = this.startedAt;
  }

  get elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.output.tickMs ?? 1000);
    this.timer.unref?.();
  }

  /** Prints a normal line (clearing the status line first) and redraws the status line. */
  line(text: string): void {
    this.clear();
    this.output.write(`${text}\n`);
    this.lastLineAt = this.now();
    this.redraw();
  }

  /** Redraws the status line (terminal only). */
  redraw(): void {
    if (!this.output.live || this.elapsedMs < this.quietMs) return;
    this.output.write(`${CLEAR_LINE}${this.status()}`);
    this.shown = true;
  }

  /** Called every tick: redraw on a terminal, a heartbeat line elsewhere when it is due. */
  tick(): void {
    if (this.output.live) this.redraw();
    else if (this.elapsedMs >= this.quietMs && this.now() - this.lastLineAt >= (this.output.heartbeatMs ?? 15_000)) this.line(this.heartbeat());
  }

  clear(): void {
    if (!this.shown) return;
    this.output.write(CLEAR_LINE);
    this.shown = false;
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }
}

/** Progress of an apply: fed by the executor's observer and the client's events. */
export class ApplyProgress {
  private readonly ticker: Ticker;
  private done = 0;
  private readonly settled = new Set<string>();
  private planned: Set<string> | undefined;
  private current: string | undefined;
  private waiting: (() => string) | undefined;
  /** When the wait being told ends (ms on the progress clock). */
  private waitEndsAt: number | undefined;

  constructor(
    private readonly steps: readonly PlanStep[],
    /** How long the steps not yet settled will take (an estimate from the request budget). */
    private readonly estimateMs: (remaining: readonly PlanStep[]) => number,
    private readonly output: ProgressOutput,
  ) {
    this.ticker = new Ticker(output, () => this.statusLine(), () => this.heartbeatLine());
  }

  start(): void {
    this.ticker.start();
    this.ticker.redraw();
  }

  /** A write covering these steps starts. */
  started(steps: readonly PlanStep[]): void {
    const first = steps[0];
    if (first === undefined) return;
    this.current = steps.length === 1 ? stepTitle(first) : `${stepTitle(first)} and ${steps.length - 1} more`;
    this.endWait();
    this.ticker.redraw();
  }

  /** A step's outcome is known: its line now. Steps not started (after a stop) are told at the end. */
  settledStep({ step, outcome }: StepResult): void {
    this.settled.add(step.id);
    // A step a kind added beyond the plan (a concurrent run's duplicate removed) has its line, not a count.
    this.planned ??= new Set(this.steps.map((planned) => planned.id));
    if (this.planned.has(step.id)) this.done += 1;
    if (outcome.status === 'skipped' && outcome.notStarted) {
      this.ticker.redraw();
      return;
    }
    this.ticker.line(outcomeLine({ step, outcome }, this.output.color));
  }

  /** What the client is doing: a wait for the rate limit or a retry is told at once. */
  clientEvent(event: ClientEvent): void {
    if (event.type === 'wait') {
      const now = this.output.now ?? Date.now;
      const endsAt = now() + event.ms;
      this.waitEndsAt = endsAt;
      this.waiting = () => waitingFor(event, endsAt - now());
      if (this.output.live) this.ticker.redraw();
      // Pacing waits are the budget at work, a second or so each: told when long (a budget
      // another command with the same key used up), as rate-limit and retry waits always are.
      else if (event.reason !== 'pacing' || event.ms >= LONG_PACING_MS) this.ticker.line(this.heartbeatLine());
    } else if (event.type === 'slow') {
      const text = `no answer for ${Math.round(event.waitedMs / 1000)}s to ${terminalText(event.operation)}`;
      this.waiting = () => text;
      this.waitEndsAt = undefined;
      this.ticker.redraw();
    } else if (event.type === 'response') {
      this.endWait();
    }
  }

  private endWait(): void {
    this.waiting = undefined;
    this.waitEndsAt = undefined;
  }

  stop(): void {
    this.ticker.stop();
  }

  private remaining(): PlanStep[] {
    return this.steps.filter((step) => !this.settled.has(step.id));
  }

  private timing(): string {
    // Whatever the budget estimates, what is left is at least the wait under way.
    const waitLeft = this.waitEndsAt === undefined ? 0 : this.waitEndsAt - (this.output.now ?? Date.now)();
    const left = Math.max(this.estimateMs(this.remaining()), waitLeft);
    return `${formatClock(this.ticker.elapsedMs)} elapsed${this.done < this.steps.length ? `, ${formatDuration(left)} left` : ''}`;
  }

  private statusLine(): string {
    const doing = this.waiting?.() ?? (this.current === undefined ? 'starting' : terminalText(this.current));
    return `[${this.done}/${this.steps.length}] ${doing} · ${this.timing()}`;
  }

  private heartbeatLine(): string {
    const doing = this.waiting?.() ?? (this.current === undefined ? 'starting' : `working on ${terminalText(this.current)}`);
    return `… ${this.done} of ${this.steps.length} steps done, ${this.timing()}; ${doing}`;
  }
}

/**
 * Progress of reading the live state (plan, and apply's reading): quiet for the first ~2 s, so
 * quick commands print nothing; then the page being read, on a status line or as heartbeats.
 */
export class ReadProgress {
  private readonly ticker: Ticker;
  private reading: (() => string) | undefined;
  private toldOnce = false;

  constructor(
    private readonly output: ProgressOutput,
    private readonly quietMs = 2_000,
  ) {
    this.ticker = new Ticker(
      output,
      () => `${this.reading?.() ?? 'reading the live state'} · ${formatClock(this.ticker.elapsedMs)} elapsed`,
      () => `… ${this.reading?.() ?? 'reading the live state'} (${formatClock(this.ticker.elapsedMs)} elapsed)`,
      quietMs,
    );
  }

  start(): void {
    this.ticker.start();
  }

  clientEvent(event: ClientEvent): void {
    let long = false;
    if (event.type === 'page') {
      const text = `${terminalText(event.operation.replace(/^listing /, 'reading '))}: page ${event.page}${event.totalPages === undefined ? '' : ` of ${event.totalPages}`}`;
      this.reading = () => text;
    } else if (event.type === 'wait' && (event.reason !== 'pacing' || event.ms >= LONG_PACING_MS)) {
      // A long pacing wait is a budget another command with this key used up: told, counting down.
      const now = this.output.now ?? Date.now;
      const endsAt = now() + event.ms;
      this.reading = () => waitingFor(event, endsAt - now());
      long = true;
    } else {
      return;
    }
    if (this.ticker.elapsedMs < this.quietMs && !long) return;
    if (this.output.live) this.ticker.redraw();
    else if (!this.toldOnce || long) {
      this.toldOnce = true;
      this.ticker.line(`… ${this.reading()}`);
    }
  }

  stop(): void {
    this.ticker.stop();
  }
}
