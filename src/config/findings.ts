// What the semantic checks share (semantic.ts, its sections and each kind folder's checks): the
// context they run in, the collector of their findings, with positions, and the shape of a kind's
// checks.
import { emailProblem } from '../domain/rules.js';
import type { PositionTarget } from './positions.js';
import type { ConfigPath, Diagnostic, Severity, SourceLocation } from './types.js';

/** What the checks need besides the configuration: positions, and which values to leave alone. */
export interface SemanticContext {
  /** Position of a merged path (nearest existing ancestor). */
  locate(path: ConfigPath, target?: PositionTarget): SourceLocation | undefined;
  /** `file:line:col` of a merged path, for messages that name a second place. */
  describe(path: ConfigPath, target?: PositionTarget): string;
  /** True for values whose references could not be resolved (already reported). */
  skip(path: ConfigPath): boolean;
  /** True when the schema reported a problem at or under `path`: findings there would only repeat it. */
  invalid(path: ConfigPath): boolean;
  /**
   * Every text value is as a file wrote it, in files whose bytes were checked for control and
   * invisible characters (no escapes unfolded, nothing substituted): no character check is needed.
   */
  verbatimText?: boolean;
  /** The time expiries (`until:`) are judged at; default: when the check runs. */
  now?: Date;
}

/**
 * One kind folder's checks of its sections, what the schema cannot say of them (duplicates,
 * schedules, names that must match a live object): declared in the folder (`KindConfigSchema`'s
 * `checks`) and handed to the analysis from above, since config/ imports no kind. They read the
 * merged, interpolated configuration, defensively (a value of the wrong type was already
 * reported), and report to `findings`.
 */
export type KindConfigCheck = (config: Record<string, unknown>, findings: Findings) => void;

/** Collects diagnostics with positions; shared by the semantic check modules. */
export class Findings {
  readonly diagnostics: Diagnostic[] = [];
  /** Values that hold control characters: reported once, not again by the checks of their field. */
  readonly #tainted = new Set<string>();
  constructor(readonly context: SemanticContext) {}

  /** Marks `path` as reported for its characters: later findings at it are dropped. */
  taint(path: ConfigPath): void {
    this.#tainted.add(JSON.stringify(path.map(String)));
  }

  /** Records one finding at `path`. */
  add(code: string, path: ConfigPath, summary: string, options: { hint?: string; severity?: Severity; target?: PositionTarget; namesMissing?: true } = {}): void {
    if (this.context.invalid(path) || this.#tainted.has(JSON.stringify(path.map(String)))) return;
    const location = this.context.locate(path, options.target);
    this.diagnostics.push({
      severity: options.severity ?? 'error',
      code,
      summary,
      ...(options.hint === undefined ? {} : { hint: options.hint }),
      ...(location === undefined ? {} : { location }),
      ...(options.namesMissing === undefined ? {} : { namesMissing: options.namesMissing }),
    });
  }

  /** The string at `path` of `record`, unless it is absent, mistyped or unresolved. */
  text(record: Record<string, unknown>, key: string, path: ConfigPath): string | undefined {
    const value = record[key];
    return typeof value === 'string' && !this.context.skip([...path, key]) ? value : undefined;
  }
}

/** An e-mail address the platform would refuse, as `email.format` at `path`; `what` names its role (`owner`, `recipient`). */
export function checkEmail(findings: Findings, path: ConfigPath, value: string, what: string): void {
  const problem = emailProblem(value);
  if (problem !== undefined) findings.add('email.format', path, `${what} \`${value}\` is not a valid e-mail address`, { hint: problem });
}
