// Two live routines with one name and one owner. The server allows it and offers no lock, so
// steward needs rules for two situations: a run that created a routine while a concurrent run
// created the same one (a race, settled by the runs themselves right after their creates), and
// a plan that meets duplicates made earlier (by hand, an older tool, or a race that could not
// be settled), which the config may ask to clean up (`duplicates: delete-identical`).
//
// RACES. Two runs that both read the live state before either created routine X both plan
// "create X" and both create it. Each run then settles the race with one list and deletes:
//
//   After its creates, a run lists each affected owner's routines once. For every routine R it
//   created and still finds, the TWINS are the listed routines of R's name whose compared state
//   (`liveState`) equals R's. The KEEPER is the oldest twin, by createdAt, then id. The run
//   deletes every twin except the keeper that is R itself or that was not in the live state it
//   read before applying. A routine that differs is never deleted, nor one the run already knew.
//
// Why at most one twin survives, for runs that apply one desired routine and carry out their
// deletes, given a list that shows every routine that was in place when the list began ("in
// place": created and, for a paused routine, paused; each run lists only after its own routines
// are in place):
//   - Twins sort by (createdAt, id), one total order, the same in every run.
//   - Nobody deletes the first twin of all: in any list that shows it, it is the keeper. So
//     at least one survives, whatever the interleaving and whatever the server's clocks say.
//   - Suppose two survive, r1 before r2, created by runs A and B. B listed after r2 was in
//     place; had its list shown r1, B's keeper would be r1 or older and B would have deleted
//     its own r2. So r1 was put in place after B's list began, hence after r2. A listed after
//     r1 was in place, so A's list showed r2 (which survives, so it was there); r2 is not A's
//     keeper (r1 or older is), and r2 was not in A's earlier read (A planned a create, so its
//     read held no twin). So A deleted r2: a contradiction. At most one survives.
// The rule does not need createdAt to follow the order in which the creates landed. With only
// "delete your own extras" it would: when A lists before b lands, A keeps a; B then sees a and
// b, and if b sorts first (two creates in one millisecond ordered by id, or clocks of two
// server nodes that disagree), B would keep b too. Deleting a newer twin that appeared after
// one's read closes that gap: B deletes a.
//
// The interleavings of two runs A and B creating a and b (a sorting first):
//   a, b land; both lists show {a, b}: both keep a; B deletes b, and A may delete b too (the
//     second delete answers 404: the duplicate is gone, which is what was wanted).
//   a lands, A lists {a}, b lands, B lists {a, b}: B deletes b.
//   b lands, B lists {b}, a lands, A lists {a, b}: A keeps a and deletes b, which appeared after
//     its read. B's report says it created b; A's says it removed b as a concurrent duplicate.
// The oldest twin of all is never deleted by anyone: whoever deletes a twin has seen an older one.
//
// Not guaranteed: runs applying different content under one name (their routines are not
// twins, both stay, and the next plan reports the ambiguity); a list that misses routines in
// place when it began (a server whose lists lag its writes, or offset paging shifted by
// concurrent deletes); a run stopped between its create and its deletes (an interrupt starts no
// new write), or whose list fails (reported as a failed step). Those leave duplicates
// that the next plan reports, with the way out below. And a run that *reads* while two other
// runs' twins briefly coexist stops at the ambiguity before writing anything.
//
// EXISTING DUPLICATES. A plan never picks one of several namesakes silently. When the config
// says `duplicates: delete-identical` for a routine, the extras identical to the oldest routine
// that matches the config are planned as deletions, visibly, keeping the oldest. A namesake that
// differs (from the config, or from the kept one in a field the config does not manage) is never
// deleted this way: it stays an ambiguity, named by id.
import { isDeepStrictEqual } from 'node:util';
import type { Routine } from '../../api/types.js';
import { matches, pick } from '../../model/fields.js';
import { liveState, type RoutineState } from './routineState.js';

/** Orders routines oldest first: createdAt, then id, so every run sorts namesakes alike. */
export function olderFirst(a: Routine, b: Routine): number {
  const [as, bs] = [a.createdAt ?? '', b.createdAt ?? ''];
  const [at, bt] = [Date.parse(as), Date.parse(bs)];
  const byTime = Number.isNaN(at) || Number.isNaN(bt) ? as.localeCompare(bs) : at - bt;
  return byTime !== 0 ? byTime : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** True when two routines have the same compared state (server-managed fields aside). */
export function sameContent(a: Routine, b: Routine): boolean {
  return isDeepStrictEqual(liveState(a), liveState(b));
}

/** A routine this run created: what it asked for, and the ids it knew before applying. */
export interface CreatedRoutine {
  id: string;
  state: RoutineState;
  /** Ids of the owner's routines in the live state read before applying. */
  known: ReadonlySet<string>;
}

/** What a run does about one routine it created, after listing its owner's routines. */
export type RaceVerdict =
  /** Its routine is no longer listed: a concurrent run removed it (in favour of `keeper`, if seen). */
  | { kind: 'gone'; keeper: Routine | undefined }
  | {
      kind: 'listed';
      keeper: Routine;
      /** Twins to delete, oldest first; the run's own routine is among them when it is not the keeper. */
      remove: Routine[];
    };

/** The race rule above for one created routine, given its owner's routines as listed after the creates. Pure. */
export function settleRace(created: CreatedRoutine, listed: readonly Routine[]): RaceVerdict {
  const namesakes = listed.filter((routine) => routine.name === created.state.name);
  const mine = namesakes.find((routine) => routine.id === created.id);
  if (mine === undefined) {
    const keys = Object.keys(created.state);
    const keeper = namesakes.filter((routine) => matches(pick(liveState(routine), keys), created.state)).sort(olderFirst)[0];
    return { kind: 'gone', keeper };
  }
  const twins = namesakes.filter((routine) => sameContent(routine, mine)).sort(olderFirst);
  const keeper = twins[0]!;
  const remove = twins.filter((twin) => twin !== keeper && (twin === mine || !created.known.has(twin.id)));
  return { kind: 'listed', keeper, remove };
}

/** How a plan sorts the namesakes of a declared routine. */
export interface Namesakes {
  /** The oldest namesake that matches the config, if any. */
  keeper: Routine | undefined;
  /** Newer namesakes identical to the keeper (full compared state): what the opt-in deletes. */
  identical: Routine[];
  /** Every other namesake: differs from the config, or from the keeper where the config is silent. */
  differing: Routine[];
}

/** Sorts namesakes into the oldest match, its identical copies and the rest. Pure. */
export function sortNamesakes(candidates: readonly Routine[], state: RoutineState, keys: readonly string[]): Namesakes {
  const oldestFirst = [...candidates].sort(olderFirst);
  const keeper = oldestFirst.find((candidate) => matches(pick(liveState(candidate), keys), state));
  const identical = keeper === undefined ? [] : oldestFirst.filter((candidate) => candidate !== keeper && sameContent(candidate, keeper));
  const differing = oldestFirst.filter((candidate) => candidate !== keeper && !identical.includes(candidate));
  return { keeper, identical, differing };
}
