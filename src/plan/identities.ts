// What a plan resolved, kept for `apply PLANFILE`: the config names users by e-mail, groups and
// models by name, and each name costs requests to resolve (on a large org, dozens of SCIM pages).
// A plan records the ids it found here; applying a saved plan seeds them into the Directory and
// the group and model resolution, so only names the file lacks are resolved again and only the
// live state (keyed by these ids, so a changed object is still stale) is read again.
//
// The book is trusted only when the file's seal verifies under the applying API key
// (planFile.ts): the steps are re-derived from the config, the live state and these ids, so
// ids nobody can vouch for would let an edited file aim a declared value at another object.
import type { StewardConfig } from '../config/types.js';
import { emailKey } from '../domain/rules.js';
import type { ResourceKind } from '../kinds/kind.js';
import type { LiveUserLimits } from '../kinds/userCreditLimits.js';
import type { Directory, DirectoryUser } from './directory.js';
import type { PlanIdentities, PlanModel, PlanStep } from './types.js';

/** The reads a saved plan's identities spare `apply FILE` (users, user groups and models by name). */
export const RESOLUTION_ROUTES: readonly string[] = ['GET /api/scim/v2/users', 'GET /api/scim/v2/groups', 'GET /api/v1/models'];

/** The ids a plan reuses (a trusted saved plan's) and those it resolves, to record in its own file. */
export class IdentityBook {
  private readonly seededGroups: ReadonlyMap<string, string>;
  private readonly seededModelsByName: ReadonlyMap<string, PlanModel>;
  private readonly seededModelsById: ReadonlyMap<string, PlanModel>;
  private readonly groups = new Map<string, string>();
  private readonly models = new Map<string, PlanModel>();

  /** `seed`: a saved plan's identities, already checked for shape and seal. */
  constructor(private readonly seed?: Omit<PlanIdentities, 'seal'>) {
    this.seededGroups = new Map((seed?.groups ?? []).map((group) => [group.name, group.id]));
    this.seededModelsByName = new Map((seed?.models ?? []).flatMap((model) => (model.name === undefined ? [] : [[model.name, model]])));
    this.seededModelsById = new Map((seed?.models ?? []).map((model) => [model.id, model]));
  }

  /** Whether this book reuses a saved plan's ids. */
  get seeded(): boolean {
    return this.seed !== undefined;
  }

  /** Whether `text` (an error's message) names an id the saved plan resolved. */
  namesSavedId(text: string): boolean {
    const { users = [], groups = [], models = [] } = this.seed ?? {};
    // The id as a whole word of the text: a short group id must not match inside another word.
    const words = new Set(text.split(/[^A-Za-z0-9_-]+/));
    return [...users, ...groups, ...models, ...models.flatMap((model) => model.branches)].some((entry) => words.has(entry.id));
  }

  /** Teaches the directory the saved plan's users, so it asks SCIM only for the others. */
  seedDirectory(directory: Directory): void {
    if (this.seed !== undefined) directory.seed(this.seed.users);
  }

  /** The saved id of a user group display name, if the saved plan resolved it. */
  groupNamed(name: string): string | undefined {
    return this.seededGroups.get(name);
  }

  /** This plan resolved a group display name to one group. */
  recordGroup(name: string, id: string): void {
    this.groups.set(name, id);
  }

  /** The saved model of this name, if it holds every branch asked for (else it is looked up again). */
  modelNamed(name: string, branches: readonly string[]): PlanModel | undefined {
    return withBranches(this.seededModelsByName.get(name), branches);
  }

  /** The saved model of this id, if it holds every branch asked for. */
  modelWithId(id: string, branches: readonly string[]): PlanModel | undefined {
    return withBranches(this.seededModelsById.get(id), branches);
  }

  /** Whether the saved plan found each of these topics on the model (so they need no request). */
  topicsChecked(modelId: string, topics: readonly string[]): boolean {
    const known = this.seededModelsById.get(modelId)?.topics;
    return known !== undefined && topics.every((topic) => known.includes(topic));
  }

  /** This plan resolved a model (by name or id), its named branches, and checked its topics. */
  recordModel(model: PlanModel): void {
    const earlier = this.models.get(model.id);
    const branches = new Map([...(earlier?.branches ?? []), ...model.branches].map((branch) => [branch.name, branch]));
    const name = model.name ?? earlier?.name;
    this.models.set(model.id, {
      id: model.id,
      ...(name === undefined ? {} : { name }),
      branches: [...branches.values()],
      topics: [...new Set([...(earlier?.topics ?? []), ...model.topics])],
    });
  }

  /**
   * What this plan resolved, for its file: every user the read kinds name (by e-mail or id), every
   * user a step or the live user limits refer to that the directory knows (shown by e-mail), and
   * the groups and models recorded while resolving.
   */
  identities(context: { kinds: readonly ResourceKind[]; config: StewardConfig; directory: Directory; steps: readonly PlanStep[]; live: Partial<Record<string, unknown>> }): PlanIdentities {
    const { directory } = context;
    const users: DirectoryUser[] = [];
    const listed = new Set<string>();
    const add = (id: string, email: string | undefined) => {
      if (email === undefined) return;
      const address = emailKey(email);
      const entry = `${id}\0${address}`;
      if (listed.has(entry)) return;
      const shown = directory.emailOf(id);
      // An id's first entry is the e-mail it is shown by; another address of it comes after.
      if (shown !== undefined) {
        const shownEntry = `${id}\0${emailKey(shown)}`;
        if (!listed.has(shownEntry)) {
          listed.add(shownEntry);
          users.push({ email: shown, id });
        }
      }
      if (listed.has(entry)) return;
      listed.add(entry);
      users.push({ email: address, id });
    };
    for (const kind of context.kinds) {
      for (const email of kind.emails(context.config)) add(directory.idOf(email), email);
      for (const id of kind.userIds?.(context.config) ?? []) add(id, directory.emailOf(id));
    }
    for (const step of context.steps) for (const value of Object.values(step.ref)) add(value, directory.emailOf(value));
    // Undeclared live limits are named for the plan (and for protection by e-mail) when read.
    const limits = context.live.userCreditLimits as LiveUserLimits | undefined;
    for (const id of limits?.keys() ?? []) add(id, directory.emailOf(id));
    return {
      users: users.map(({ email, id }) => ({ email, id })),
      groups: [...this.groups].map(([name, id]) => ({ name, id })),
      models: [...this.models.values()],
    };
  }
}

function withBranches(model: PlanModel | undefined, branches: readonly string[]): PlanModel | undefined {
  if (model === undefined) return undefined;
  return branches.every((name) => model.branches.some((branch) => branch.name === name)) ? model : undefined;
}
