// `--state FILE`: the emulator's state on disk, so separate runs (and emulators running side by
// side) see each other's writes. Written atomically (temporary file + rename) after every
// successful write; re-read when another process has replaced it.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { StewardError } from '../errors.js';
import { STATE_VERSION, type EmulatorState } from './state.js';

const FORMAT = 'steward-emulator-state';
const REQUIRED_LISTS = ['users', 'groups', 'models', 'documents', 'labels', 'routines', 'apiTokens', 'entityGroups'];

interface StateFileContent {
  format: typeof FORMAT;
  version: number;
  state: EmulatorState;
}

/** One state file on disk, read and written whole. */
export class StateFile {
  /** Identity of the file as last read or written by this process (inode + mtime). */
  private lastSeen: string | undefined;

  constructor(readonly path: string) {}

  /** The saved state, or undefined when the file does not exist; throws for a file that is not one. */
  read(): EmulatorState | undefined {
    if (!existsSync(this.path)) return undefined;
    const identity = this.identity();
    let content: unknown;
    try {
      content = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (error) {
      throw this.unusable(`it is not JSON (${(error as Error).message})`);
    }
    const file = content as Partial<StateFileContent> | null;
    if (file === null || typeof file !== 'object' || file.format !== FORMAT) {
      throw this.unusable('it is not an emulator state file');
    }
    if (file.version !== STATE_VERSION) {
      throw this.unusable(`it has version ${String(file.version)}, this steward reads version ${STATE_VERSION}`);
    }
    const state = file.state as unknown as Record<string, unknown> | undefined;
    const broken = REQUIRED_LISTS.find((key) => !Array.isArray(state?.[key]));
    if (!state || broken !== undefined || typeof state.organization !== 'object') {
      throw this.unusable(`its state is incomplete (${broken ?? 'organization'})`);
    }
    this.lastSeen = identity;
    // State files written before folders were kept have none.
    return { ...file.state!, folders: file.state!.folders ?? [] };
  }

  /** Writes the state atomically. */
  write(state: EmulatorState): void {
    const content: StateFileContent = { format: FORMAT, version: STATE_VERSION, state };
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, 'utf8');
    renameSync(temporary, this.path);
    this.lastSeen = this.identity();
  }

  /** Whether the file was created or replaced by someone else since this process last read or wrote it. */
  changedElsewhere(): boolean {
    const identity = this.identity();
    return identity !== undefined && identity !== this.lastSeen;
  }

  private identity(): string | undefined {
    try {
      const stats = statSync(this.path);
      return `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    } catch {
      return undefined;
    }
  }

  private unusable(reason: string): StewardError {
    return new StewardError('emulator.state.invalid', `cannot use state file ${this.path}: ${reason}`, 'user', {
      hint: 'delete the file to start again from the seed data',
    });
  }
}
