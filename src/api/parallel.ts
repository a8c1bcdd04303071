// Reads that do not depend on each other run side by side, a few at a time: the pacer keeps
// them inside the request budget, the bound keeps a large read from flooding its queue.

/** How many independent reads one command keeps in flight. */
export const READ_CONCURRENCY = 4;

/**
 * Runs `task` for every item, at most `bound` at once; rejects with the first failure, after
 * which no further task starts (the ones running end on their own).
 */
export async function inParallel<T>(items: readonly T[], task: (item: T) => Promise<void>, bound = READ_CONCURRENCY): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(bound, items.length) }, worker));
}
