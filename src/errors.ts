// Typed errors with stable codes and whose fault they are, so the CLI can choose an exit code
// and a message, and `--json` output can carry a machine-readable envelope.

/** Whose fault: the user's config or input, the server's answer, or a defect in steward. */
export type Fault = 'user' | 'server' | 'tool';

export class StewardError extends Error {
  override readonly name: string = 'StewardError';
  constructor(
    /** Stable code, e.g. `config.invalid`, `plan.stale`, `auth.scope`. */
    readonly code: string,
    message: string,
    readonly fault: Fault = 'user',
    options?: { cause?: unknown; hint?: string; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options?.hint;
    this.details = options?.details;
  }
  readonly hint: string | undefined;
  /** Machine-readable particulars for the `--json` envelope (e.g. the diagnostics of a config). */
  readonly details: Record<string, unknown> | undefined;
}

/** The `--json` envelope of an error: the same shape whatever went wrong. */
export interface ErrorEnvelope {
  error: { code: string; fault: Fault; message: string; hint?: string; [detail: string]: unknown };
}

/** Turns anything thrown into the `--json` error envelope. */
export function toErrorEnvelope(error: unknown): ErrorEnvelope {
  if (error instanceof StewardError) {
    return {
      error: {
        code: error.code,
        fault: error.fault,
        message: error.message,
        ...(error.hint === undefined ? {} : { hint: error.hint }),
        ...error.details,
      },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { error: { code: 'internal', fault: 'tool', message } };
}

/**
 * The last case of a switch that handles every member of a closed union (a step's action, a
 * label's fate): there `value` is `never`, so a member added to the union and handled nowhere
 * fails to compile. Reached only through data the types were wrong about: a defect.
 */
export function unreachable(value: never): never {
  throw new Error(`no case handles ${JSON.stringify(value)}`);
}
