// Stopping an apply between writes. Two things stop one: the user (SIGINT, SIGTERM) and a server
// that refuses the credentials (401, 403), after which every further write would be refused too.
// Once stopped, no new write starts; the write in flight finishes and is reported.

export type StopCause =
  | { kind: 'interrupt'; signal: 'SIGINT' | 'SIGTERM' }
  | { kind: 'auth'; status: number; error: string };

/** The shared "stop" of one apply run; the first cause wins. */
export class ApplyStop {
  #cause: StopCause | undefined;
  #writing = false;
  readonly #listeners: ((cause: StopCause) => void)[] = [];

  /** Whether writes are being sent now (an interrupt then waits for the one in flight). */
  get writing(): boolean {
    return this.#writing;
  }

  beginWriting(): void {
    this.#writing = true;
  }

  endWriting(): void {
    this.#writing = false;
  }

  get cause(): StopCause | undefined {
    return this.#cause;
  }

  get stopped(): boolean {
    return this.#cause !== undefined;
  }

  /** Stops the run (a second call keeps the first cause). */
  stop(cause: StopCause): void {
    if (this.#cause !== undefined) return;
    this.#cause = cause;
    for (const listener of this.#listeners) listener(cause);
  }

  /** Called once, when the run stops. */
  onStop(listener: (cause: StopCause) => void): void {
    this.#listeners.push(listener);
  }

  /** Why a step was not started, in the words the report uses. */
  notStartedReason(): string {
    const cause = this.#cause;
    if (cause === undefined) return 'not started';
    return cause.kind === 'interrupt'
      ? `not started: apply was interrupted (${cause.signal})`
      : `not attempted: the server refused a write with ${cause.error}`;
  }
}

/** Exit codes of a run stopped by a signal: 128 + the signal's number, as shells report it. */
export const SIGNAL_EXIT_CODE = { SIGINT: 130, SIGTERM: 143 } as const;
