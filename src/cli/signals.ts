// SIGINT and SIGTERM during an apply. The first one stops the run between writes: no new write
// starts, the one in flight finishes (bounded by the request timeout) and the report says what was
// done and what was not started. Before any write (reading, the prompt) it exits at once, as
// nothing was changed. A second one exits at once: the outcome of the write in flight is unknown.
import { SIGNAL_EXIT_CODE, type ApplyStop } from '../engine/stop.js';
import type { CommandIo } from './context.js';

type Signal = keyof typeof SIGNAL_EXIT_CODE;

/** Wires SIGINT and SIGTERM of this process to `stop`; returns the function that unwires them. */
export function stopOnSignals(
  stop: ApplyStop,
  io: CommandIo,
  exit: (code: number) => never = (code) => process.exit(code),
  /** Said on stdout before exiting at once (the JSON document of --json). */
  lastWords?: (message: string, signal: Signal) => void,
): () => void {
  let received = 0;
  const exitSaying = (message: string, signal: Signal) => {
    io.stderr(`\n${message}\n`);
    lastWords?.(message, signal);
    return exit(SIGNAL_EXIT_CODE[signal]);
  };
  const handle = (signal: Signal) => {
    received += 1;
    if (!stop.writing) return exitSaying(`Interrupted (${signal}) before any write; nothing was changed.`, signal);
    if (received === 1) {
      io.stderr(`\nInterrupted (${signal}): no new write starts, nor one still waiting to be sent; finishing the write in flight. Interrupt again to exit at once.\n`);
      stop.stop({ kind: 'interrupt', signal });
      return undefined;
    }
    return exitSaying(
      `Interrupted again (${signal}): exiting now. The outcome of the write in flight is unknown; ` +
        'running apply again is safe: it reads the live state first and finishes the rest.',
      signal,
    );
  };
  const onInterrupt = () => handle('SIGINT');
  const onTerminate = () => handle('SIGTERM');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  return () => {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
  };
}
