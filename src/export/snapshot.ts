// Reading an instance's live state as a whole, for export and promotion. Each kind's export facet
// (ResourceKind.export) reads it with the same list endpoints and read functions a plan uses, with
// a "desired" that covers everything live, and names its ids as the config does (users by e-mail
// through SCIM). In three steps, so no lookup is made twice: what needs no identity begins, the
// owners are looked up, then every kind reads (after the kinds it reads after).
import type { StepKind } from '../model/plan.js';
import type { PlatformApi } from '../api/platform.js';
import type { Whoami } from '../api/types.js';
import type { Kind, StewardConfig } from '../config/types.js';
import { withReadDependencies } from '../engine/planner.js';
import { StewardError } from '../errors.js';
import { REGISTRY } from '../kinds/registry.js';
import type { ExportContext, ResourceKind } from '../model/kind.js';
import { Directory, type CallerUser } from '../resolve/directory.js';
import { adminProblem, keyUser } from '../resolve/preflight.js';

/** What was read. */
export interface LiveSnapshot {
  /** What was read of each kind, as its export facet holds it; a kind not read is absent. */
  read: Partial<Record<Kind, unknown>>;
  /** The kinds asked for; others may have been read for them (the labels, for their documents). */
  asked: readonly Kind[];
  /** The user the API key acts as; none for an organization key tied to no user. */
  caller: CallerUser | undefined;
  /** What of the kinds asked for was not read, and why (routines of a key tied to no user, and no owner named). */
  warnings: string[];
}

export interface SnapshotRequest {
  kinds: readonly Kind[];
  /**
   * E-mails of users whose objects (routines) are read too (organization keys), with `owner:`. The
   * key's own user is read as well when it has one; named here, its routines carry `owner:` too.
   */
  owners?: readonly string[];
  /**
   * E-mails whose objects are read instead when `owners` is empty and the key has no user of its
   * own (an organization key tied to no user): export passes the owners the config names.
   */
  ownersWithoutKeyUser?: readonly string[];
  /** A promotion's configuration: kinds read only what it manages where that reads less (ExportContext.declared). */
  declared?: StewardConfig;
  /** Checks whoami before anything else is read (e.g. that every routine can be given an owner). */
  checkKey?: (whoami: Whoami) => void;
  /** The kinds there are; default: every kind steward has. */
  registry?: ReadonlyMap<StepKind, ResourceKind>;
}

/** The owners (e-mails) a configuration names for the objects of its kinds (routines' `owner:`). */
export function ownersIn(config: StewardConfig, registry: ReadonlyMap<StepKind, ResourceKind> = REGISTRY): string[] {
  return [...registry.values()].flatMap((kind) => kind.export?.owners?.(config) ?? []);
}

/** Reads the live state of `kinds` with the fewest requests; throws one clear error when the key cannot. */
export async function readSnapshot(api: PlatformApi, request: SnapshotRequest): Promise<LiveSnapshot> {
  const registry = request.registry ?? REGISTRY;
  const asked = request.kinds.flatMap((kind) => registry.get(kind) ?? []);
  const exported = withReadDependencies(registry, asked).filter((kind) => kind.export !== undefined);
  const named = request.owners ?? [];
  const whoami = await api.whoami();
  checkPermissions(whoami, asked, named);
  request.checkKey?.(whoami);
  const caller = keyUser(whoami);
  const directory = new Directory(whoami.keyScope === 'organization' ? api : undefined, caller, whoami.keyScope);
  const owners = named.length === 0 && caller === undefined && whoami.keyScope === 'organization' ? request.ownersWithoutKeyUser ?? [] : named;
  const context: ExportContext = { api, directory, ...(request.declared === undefined ? {} : { declared: request.declared }) };
  // What needs no identity begins while the owners are looked up (the live user limits).
  const stopping = new AbortController();
  const started = new Map<Kind, Promise<unknown>>();
  for (const kind of exported) {
    const begun = kind.export!.start?.(api, stopping.signal);
    if (begun === undefined) continue;
    begun.catch(() => undefined); // awaited by the kind's read, or settled before an error is thrown
    started.set(kind.kind, begun);
  }
  // When a read begun early names users, even one owner is looked up by the SCIM listing's page 1,
  // which may name those users too.
  const listingAhead = async () =>
    (await Promise.all(exported.map((kind) => (started.has(kind.kind) ? kind.export!.namesUsers?.(started.get(kind.kind)!) ?? false : false)))).some(Boolean);
  const identified = new Map<Kind, unknown>();
  try {
    for (const kind of exported) {
      if (kind.export!.identify !== undefined) identified.set(kind.kind, await kind.export!.identify({ ...context, owners, listingAhead }));
    }
  } catch (error) {
    stopping.abort();
    await Promise.allSettled(started.values());
    throw error;
  }
  const snapshot: LiveSnapshot = { read: {}, asked: request.kinds, caller, warnings: [] };
  // Every kind reads at once, each after the kinds it reads after.
  const reads = new Map<Kind, Promise<void>>();
  const readKind = (kind: ResourceKind): Promise<void> => {
    const begun = reads.get(kind.kind);
    if (begun !== undefined) return begun;
    const dependencies = kind.readAfter.flatMap((dependency) => exported.filter((other) => other.kind === dependency));
    const reading = Promise.all(dependencies.map(readKind)).then(async () => {
      const live = snapshot.read;
      const found = await kind.export!.read({
        ...context,
        live,
        ...(started.has(kind.kind) ? { started: started.get(kind.kind)! } : {}),
        ...(identified.has(kind.kind) ? { identified: identified.get(kind.kind) } : {}),
        read: (desired) => kind.read({ api, directory, live, started: started.get(kind.kind) }, desired),
        warn: (message) => void snapshot.warnings.push(message),
      });
      if (found !== undefined) snapshot.read[kind.kind] = found;
    });
    reads.set(kind.kind, reading);
    return reading;
  };
  await Promise.all(exported.map(readKind));
  // The key's own user by e-mail, when the reads above happened to name it.
  const callerEmail = caller === undefined ? undefined : directory.emailOf(caller.id);
  if (caller !== undefined && callerEmail !== undefined) snapshot.caller = { id: caller.id, email: callerEmail };
  return snapshot;
}

function checkPermissions(whoami: Whoami, kinds: readonly ResourceKind[], owners: readonly string[]): void {
  const problems: string[] = [];
  const admin = adminProblem(whoami, kinds);
  if (admin !== undefined) problems.push(admin);
  for (const kind of kinds) problems.push(...(kind.export?.problems?.(whoami, owners) ?? []));
  if (problems.length > 0) {
    throw new StewardError('read.permissions', `this API key cannot read what was asked:\n  - ${problems.join('\n  - ')}`, 'user', {
      hint: 'leave those kinds out (--kind), or use an organization key with the Organization Admin role',
    });
  }
}
