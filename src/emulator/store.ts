// Holds the live state next to the seed it came from: reset restores the seed, writes run as
// transactions (rolled back when the handler throws), and with a state file every successful
// write is saved and changes made by another process are picked up.
import type { EmulatorState } from './state.js';
import type { StateFile } from './stateFile.js';

/** Most listings whose sorted records are kept between two changes of the state. */
const MAX_MEMOS = 32;

/** The live state, its seed and (optionally) its state file. */
export class Store {
  private current: EmulatorState;
  /** Whether the state came from the state file rather than the seed. */
  readonly loadedFromFile: boolean;
  /** Bumped by every change of the live state (a write, a reset, a reload): memos follow it. */
  private version = 0;
  private memoVersion = 0;
  private readonly memos = new Map<string, unknown>();
  private writing = false;

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
    if (this.file?.changedElsewhere()) {
      this.current = this.file.read() ?? this.current;
      this.version += 1;
    }
    return this.current;
  }

  /**
   * A value derived from the live state, computed once until the state next changes: the pages
   * of one listing share its sorted records (a server sorts by an index, not per request).
   * Within a write it is computed afresh, and callers never change what it returns.
   */
  memo<T>(name: string, compute: () => T): T {
    if (this.writing) return compute();
    void this.state; // a change by another process bumps the version first
    if (this.memoVersion !== this.version) {
      this.memos.clear();
      this.memoVersion = this.version;
    }
    if (!this.memos.has(name)) {
      // Listings differ by their filters: a long run of reads with ever new filters and no write
      // between them keeps only the latest few.
      if (this.memos.size >= MAX_MEMOS) this.memos.clear();
      this.memos.set(name, compute());
    }
    return this.memos.get(name) as T;
  }

  /** Back to the seed; saved to the state file when there is one. */
  reset(): void {
    this.version += 1;
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
    this.writing = true;
    try {
      result = change(state);
    } catch (error) {
      this.current = before;
      throw error;
    } finally {
      this.writing = false;
      this.version += 1;
    }
    if (result.status < 300) this.file?.write(this.current);
    else this.current = before;
    return result;
  }
}
