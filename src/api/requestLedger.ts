// The request budget is per API key, not per process: the platform counts every request of a key
// in its minute, whichever process sent it. So each process leaves the times of its recent
// requests in a small file in the user's cache directory, and the next process with the same key
// starts with them counted (see Pacer.seed): `plan` then `apply` in one CI job stay inside the
// budget instead of each starting with a fresh burst. A lone command finds no recent requests
// and is not slowed at all.
//
// The file is named by the sha256 digest of origin and token (pacerKey), never the token; it
// holds wall-clock times (ms) of the last minute only, is replaced atomically (write, rename),
// merged with what another process wrote meanwhile, and read leniently: a missing, unreadable
// or corrupt file counts as no recent requests. STEWARD_CACHE_DIR moves it; `off` disables it.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where a key's recent request times are kept, or undefined when keeping them is off. */
export function ledgerFile(key: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const setting = env.STEWARD_CACHE_DIR;
  if (setting !== undefined && setting.trim().toLowerCase() === 'off') return undefined;
  const directory = setting !== undefined && setting !== '' ? setting : join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'steward');
  return join(directory, `requests-${key.slice(0, 40)}.json`);
}

/** The wall-clock times of requests within `windowMs` before `now`; none when the file is unusable. */
export function readLedger(file: string, now: number, windowMs: number): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const times = (parsed as { times?: unknown } | null)?.times;
  if (!Array.isArray(times)) return [];
  return times.filter((time): time is number => typeof time === 'number' && Number.isFinite(time) && time > now - windowMs && time <= now);
}

/**
 * Adds `times` to the file (keeping what others wrote within the window) and replaces it
 * atomically. Never throws: a cache that cannot be written only costs the next process its view.
 */
export function writeLedger(file: string, times: readonly number[], now: number, windowMs: number): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    // Not deduplicated: two requests may end in the same millisecond; each process writes its own once.
    const merged = [...readLedger(file, now, windowMs), ...times.filter((time) => time > now - windowMs)].sort((a, b) => a - b);
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, JSON.stringify({ times: merged }), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // Read-only home, full disk, the file's name taken by a directory: the budget is still kept
    // within this process. The temporary file goes, or every command would leave one more behind.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Not ours to remove after all (writeLedger never throws).
    }
  }
}
