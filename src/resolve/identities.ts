// What a plan resolved, kept for `apply PLANFILE`: the config names users by e-mail, groups and
// models by name, and each name costs requests to resolve (on a large org, dozens of SCIM pages).
// A plan records the ids it found here; applying a saved plan seeds them into the Directory and
// the group and model resolution, so only names the file lacks are resolved again and only the
// live state (keyed by these ids, so a changed object is still stale) is read again.
//
// The book is trusted only when the file's seal verifies under the applying API key
// (planFile.ts): the steps are re-derived from the config, the live state and these ids, so
// ids nobody can vouch for would let an edited file aim a declared value at another object.
import { arrayOf, definition, described, objectOf, scalar, type Static } from '../typedSchema.js';

// ---- what a plan file records of them (plan.schema.json `identities`) ----

const nonEmpty = scalar('string', { minLength: 1 });

/** A name and its id (`$defs/namedId` of the plan's schema, which model/planFormat.ts lists). */
export const namedId = definition(
  'namedId',
  described('A name as the config writes it and the id it resolved to.', objectOf({ name: nonEmpty, id: nonEmpty }, ['name', 'id'])),
);

const planUser = objectOf({ email: nonEmpty, id: nonEmpty }, ['email', 'id']);

const planModel = objectOf(
  {
    id: nonEmpty,
    name: described('The name routines give the model; absent for a model named by id.', nonEmpty),
    branches: arrayOf(namedId.ref),
    topics: arrayOf(nonEmpty),
  },
  ['id', 'branches', 'topics'],
);

/**
 * The names the config uses, as the plan resolved them in its deployment, declared once: the
 * schema of a plan's `identities` and its type. Optional and additive (format 1 without it
 * resolves everything again). Ids and e-mails only, never a token: the seal is keyed by the API
 * token that made the plan, so apply reuses the ids only under the same token and an edited
 * section is never trusted. Sealed when the plan is saved (`plan --out`), unsealed in `plan --json`.
 */
export const planIdentitiesSchema = objectOf(
  {
    users: described(
      "Users by e-mail: the config's users and routine owners, and users a step only shows (a pruned limit). An id's first entry is the e-mail it is shown by; later ones are other addresses of the same user.",
      arrayOf(planUser),
    ),
    groups: described('User groups by display name (`group:` of a user group limit).', arrayOf(namedId.ref)),
    models: described(
      'Routine models by name (or by `modelId:` where a branch is named): the branches the routines name and the topics found on the model.',
      arrayOf(planModel),
    ),
    seal: described(
      "HMAC-SHA256 of the identities with the plan's environment, base URL and config digest, keyed by the API token that made the plan (written by `plan --out`; the token itself never is).",
      scalar('string', { pattern: '^hmac-sha256:[0-9a-f]{64}$' }),
    ),
  },
  ['users', 'groups', 'models'],
);

export type PlanIdentities = Static<typeof planIdentitiesSchema>;
/** A user by e-mail. */
export type PlanUser = Static<typeof planUser>;
/** A user group by display name. */
export type PlanGroup = Static<typeof namedId.ref>;
/** A model by name (or by literal id), with the branches routines name and the topics found on it. */
export type PlanModel = Static<typeof planModel>;

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

  /** Whether one of `ids` (what a failed request named) is an id the saved plan resolved. */
  namesSavedId(ids: readonly string[]): boolean {
    const { users = [], groups = [], models = [] } = this.seed ?? {};
    const named = new Set(ids);
    return [...users, ...groups, ...models, ...models.flatMap((model) => model.branches)].some((entry) => named.has(entry.id));
  }

  /** Teaches the directory the saved plan's users, so it asks SCIM only for the others. */
  seedDirectory(directory: { seed(users: readonly PlanUser[]): void }): void {
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

  /** The groups this plan resolved by name. */
  get recordedGroups(): PlanGroup[] {
    return [...this.groups].map(([name, id]) => ({ name, id }));
  }

  /** The models this plan resolved, with their named branches and checked topics. */
  get recordedModels(): PlanModel[] {
    return [...this.models.values()];
  }
}


function withBranches(model: PlanModel | undefined, branches: readonly string[]): PlanModel | undefined {
  if (model === undefined) return undefined;
  return branches.every((name) => model.branches.some((branch) => branch.name === name)) ? model : undefined;
}
