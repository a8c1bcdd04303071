// Holds the live state next to the seed it came from: reset restores the seed, writes run as
// transactions (rolled back when the handler throws), and with a state file every successful
// write is saved and changes made by another process are picked up.
import type { EmulatorState } from './state.js';
import type { StateFile } from './stateFile.js';

/** The live state, its seed and (optionally) its state file. */
export class Store {
  private current: EmulatorState;
  /** Whether the state came from the state file rather than the seed. */
  readonly loadedFromFile: boolean;

  /** Starts from the state file when it exists, otherwise from the seed. */
  constructor(
    private readonly seed: EmulatorState,
    private readonly file?: StateFile,
  ) {
    const saved = file?.read();
    this.loadedFromFile = saved !== undefined;
    this.current = saved ?? structuredClone(seed);
  }

  /** The live state (re-read first when another process replaced the state file). */
  get state(): EmulatorState {
    if (this.file?.changedElsewhere()) this.current = this.file.read() ?? this.current;
    return this.current;
  }

  /** Back to the seed; saved to the state file when there is one. */
  reset(): void {
    this.current = structuredClone(this.seed);
    this.file?.write(this.current);
  }

  /**
   * Runs a write against the live state. When `change` throws, the state is exactly as before;
   * when it returns a success (`status` < 300) and there is a state file, the state is saved.
   */
  transaction<T extends { status: number }>(change: (state: EmulatorState) => T): T {
    const state = this.state;
    const before = structuredClone(state);
    let result: T;
    try {
      result = change(state);
    } catch (error) {
      this.current = before;
      throw error;
    }
    if (result.status < 300) this.file?.write(this.current);
    else this.current = before;
    return result;
  }
}
