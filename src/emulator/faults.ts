// Fault injection: make the Nth write, or requests to a route, fail in one of three ways —
// answer 500, reset the connection before answering, or carry out the request and then drop
// the connection without an answer (the case that makes naive clients duplicate writes).
import { StewardError } from '../errors.js';

export const FAULT_ACTIONS = ['500', 'reset', 'drop-after-commit'] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

/** A fault: by write number (`write`) or by `route` (`METHOD /path`, template or concrete path). */
export type Fault =
  | { write: number; action: FaultAction; times?: number }
  | { route: string; action: FaultAction; times?: number };

/** A fault object, or its text form, e.g. `write:3=drop-after-commit`, `POST /api/v1/labels=500x2`. */
export type FaultInput = Fault | string;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const SYNTAX =
  /^\s*(?:write:\s*(\d+)|([A-Za-z]+)\s+(\/\S*))\s*=\s*(500|reset|drop-after-commit)(?:\s*[x*]\s*(\d+|always))?\s*$/i;

export const FAULT_SYNTAX_HELP =
  'expected TARGET=ACTION[xN]: TARGET is `write:N` or `METHOD /path` (a route template or a concrete path), ' +
  'ACTION is 500, reset or drop-after-commit, and xN fires it N times (`xalways` for every match)';

function invalid(text: string, reason: string): StewardError {
  return new StewardError('emulator.fault.invalid', `invalid fault \`${text}\`: ${reason}`, 'user', {
    hint: FAULT_SYNTAX_HELP,
  });
}

/** Parses the text form of a fault; throws a StewardError naming what is wrong. */
export function parseFault(text: string): Fault {
  const match = SYNTAX.exec(text);
  if (!match) throw invalid(text, 'not in the fault syntax');
  const [, writeNumber, method, path, action, count] = match;
  const times = count === undefined ? 1 : count.toLowerCase() === 'always' ? Number.POSITIVE_INFINITY : Number(count);
  const fault: Fault =
    writeNumber !== undefined
      ? { write: Number(writeNumber), action: action!.toLowerCase() as FaultAction, times }
      : { route: `${method!.toUpperCase()} ${path!}`, action: action!.toLowerCase() as FaultAction, times };
  return checkFault(fault, text);
}

function checkFault(fault: Fault, text: string): Fault {
  const times = fault.times ?? 1;
  if (!(FAULT_ACTIONS as readonly string[]).includes(fault.action)) {
    throw invalid(text, `unknown action \`${fault.action}\``);
  }
  if (!(times === Number.POSITIVE_INFINITY || (Number.isInteger(times) && times >= 1))) {
    throw invalid(text, 'times must be a whole number of at least 1');
  }
  if ('write' in fault) {
    if (!Number.isInteger(fault.write) || fault.write < 1) throw invalid(text, 'write numbers start at 1');
  } else {
    const [method, path, ...rest] = fault.route.split(' ');
    if (!METHODS.includes(method ?? '') || !path?.startsWith('/') || rest.length > 0) {
      throw invalid(text, `a route is \`METHOD /path\` with METHOD one of ${METHODS.join(', ')}`);
    }
  }
  return { ...fault, times };
}

/** The text form of a fault (what `parseFault` reads back). */
export function formatFault(fault: Fault): string {
  const target = 'write' in fault ? `write:${fault.write}` : fault.route;
  const times = fault.times ?? 1;
  return `${target}=${fault.action}${times === 1 ? '' : `x${times === Number.POSITIVE_INFINITY ? 'always' : times}`}`;
}

/** What a request looks like to the fault matcher. */
export interface FaultProbe {
  method: string;
  path: string;
  /** Route template, when a route matched. */
  template: string | null;
  /** Write number, for writes. */
  writeNumber: number | null;
}

interface ArmedFault {
  fault: Fault;
  remaining: number;
}

/** The armed faults of one emulator; each fires at most its number of times. */
export class FaultPlan {
  private armed: ArmedFault[] = [];

  /** Arms a fault (text or object); throws a StewardError for a malformed one. */
  add(input: FaultInput): void {
    const fault = typeof input === 'string' ? parseFault(input) : checkFault(input, formatFault(input));
    this.armed.push({ fault, remaining: fault.times ?? 1 });
  }

  /** Disarms every fault. */
  clear(): void {
    this.armed = [];
  }

  /** The armed faults that can still fire, in text form. */
  list(): string[] {
    return this.armed.filter((entry) => entry.remaining > 0).map((entry) => formatFault(entry.fault));
  }

  /**
   * The action for this request, if an armed fault matches; uses up one firing. A write fault
   * with N firings covers writes W..W+N-1; a route fault fires on the next N matching requests.
   */
  take(probe: FaultProbe): FaultAction | undefined {
    const entry = this.armed.find((candidate) => candidate.remaining > 0 && matches(candidate.fault, probe));
    if (!entry) return undefined;
    entry.remaining -= 1;
    return entry.fault.action;
  }
}

function matches(fault: Fault, probe: FaultProbe): boolean {
  if ('write' in fault) {
    const times = fault.times ?? 1;
    return probe.writeNumber !== null && probe.writeNumber >= fault.write && probe.writeNumber < fault.write + times;
  }
  const [method, path] = fault.route.split(' ') as [string, string];
  return method === probe.method && (path === probe.template || path === probe.path);
}
