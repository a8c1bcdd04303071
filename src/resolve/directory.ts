// Users by e-mail and by id, resolved through SCIM with the fewest requests: config names users
// by e-mail (ids differ between deployments), the API wants membership ids.
//
// The documented reads: the listing (`GET /api/scim/v2/users`, 100 a page), a `userName eq`
// filter for one e-mail (the only attribute the documents filter on), and one user by id
// (`GET /api/scim/v2/users/{id}`); a SCIM user's `id` is taken to be the membership id (gaps.md).
//
// Choosing the read. A lookup finds one user per request (SCIM here has no `or`); the full
// listing finds everyone in ⌈org size / 100⌉ requests, and the org size is known only from a
// listing page's `totalResults`. So: one name is one lookup. For more, page 1 of the listing
// is read first — it is never wasted when the listing wins, and it may already hold some of
// the names; then the remaining pages are read (side by side, by `startIndex`) if they are no
// more than the names still unknown, else those names are looked up one by one. At most one
// request above the cheaper choice known in hindsight, and only when the lookups win.
import { isNotFound } from '../api/errors.js';
import type { PlatformApi } from '../api/platform.js';
import type { ScimUser } from '../api/types.js';
import { emailKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';
import { editDistance } from '../config/suggest.js';
import { UserGroups, type GroupsApi } from './groups.js';
import { inParallel } from '../api/parallel.js';
import { ScimListing } from './scimListing.js';

export interface DirectoryUser {
  id: string;
  email: string;
}

/** What the directory says of one e-mail: an active user, a deactivated one, or no user (with the closest user's e-mail, if one is near). */
export type EmailStanding = { is: 'user' } | { is: 'deactivated-user' } | { is: 'not-a-user'; didYouMean?: string };

/**
 * How many listing pages after the first a did-you-mean may read (100 users each): on an unknown
 * e-mail the whole directory is worth a few requests, not minutes of them on a very large org.
 */
export const SUGGESTION_PAGES = 5;

/** The user an API key acts as, by membership id; whoami gives no e-mail (a test directory may). */
export interface CallerUser {
  id: string;
  email?: string | undefined;
  /** whoami's `user.id`, the user's own id: a SCIM record under it shows SCIM answers user ids. */
  userId?: string | undefined;
}

export class Directory {
  private readonly byEmail = new Map<string, DirectoryUser>();
  private readonly byId = new Map<string, DirectoryUser>();
  /** E-mails that are the userName of one user, whose second user with it makes them ambiguous. */
  private readonly named = new Set<string>();
  /** E-mails that are the userName of more than one user, with those users' ids. */
  private readonly ambiguous = new Map<string, Set<string>>();
  /** Users SCIM lists as not active, to say so when they make an e-mail ambiguous. */
  private readonly inactive = new Set<string>();
  private listedAll = false;
  /** The SCIM users listing, read by pages as `find` chooses (organization keys). */
  private readonly listing: ScimListing<ScimUser> | undefined;

  constructor(
    private readonly api: Pick<PlatformApi, 'listScimUsers' | 'scimUsersPage' | 'getScimUser'> | undefined,
    /** The user the API key acts as (whoami), if any: none for an organization key tied to no user. */
    readonly caller: CallerUser | undefined,
    /** Whose key: a personal token acts only as its user; an organization key acts for anyone by `userId`. */
    readonly keyScope: 'user' | 'organization' = api === undefined ? 'user' : 'organization',
  ) {
    if (caller?.email !== undefined) this.remember({ id: caller.id, email: caller.email });
    if (api !== undefined) this.listing = new ScimListing((startIndex, count, page) => api.scimUsersPage(startIndex, count, page), (user) => this.rememberScim(user));
  }

  /** A directory that knows exactly these users and never calls the API (tests, offline diffs). */
  static of(users: DirectoryUser[], caller?: CallerUser, keyScope: 'user' | 'organization' = 'user'): Directory {
    const directory = new Directory(undefined, caller, keyScope);
    for (const user of users) directory.remember(user);
    directory.listedAll = true;
    return directory;
  }

  /**
   * How many users the organization has: the SCIM listing's total, reading its page 1 unless read
   * already (one request); undefined for a key that cannot use SCIM, or a listing without a total.
   */
  async userCount(): Promise<number | undefined> {
    if (this.listing === undefined) return undefined;
    if (this.listing.total === undefined && !this.listing.started) await this.listing.readFirst();
    return this.listing.total;
  }

  /**
   * The deployment's user groups looked up so far (src/resolve/groups.ts): the names a plan resolves
   * and the names pruning shows come from one cache, so a listing is read once.
   */
  groups(api: GroupsApi): UserGroups {
    return (this.userGroups ??= new UserGroups(api));
  }

  private userGroups: UserGroups | undefined;

  /**
   * Resolves e-mails to ids; throws one error naming every address the instance does not know.
   * `listingAhead`: whether the caller will resolve more users after these (see find).
   */
  async resolveEmails(emails: readonly string[], options: { listingAhead?: () => Promise<boolean> } = {}): Promise<void> {
    const wanted = [...new Set(emails.map(emailKey))].filter((email) => !this.byEmail.has(email));
    await this.find(wanted, (email) => this.filterUsers(`userName eq ${quote(email)}`), (email) => this.byEmail.has(email), options.listingAhead);
    const unknown = wanted.filter((email) => !this.byEmail.has(email));
    if (unknown.length > 0) {
      // A listing that fails here costs only the suggestion: the unknown e-mails are still the error.
      const suggestions = await this.suggest(unknown).catch(() => new Map<string, string>());
      const named = unknown.map((email) => (suggestions.has(email) ? `${email} (did you mean ${suggestions.get(email)}?)` : email));
      throw new StewardError(
        'plan.unknown-user',
        `${unknown.length === 1 ? 'this e-mail address is' : 'these e-mail addresses are'} not a user of the instance: ${named.join(', ')}`,
        'user',
        {
          hint: 'check the spelling, or invite the user first',
          details: { unknownEmails: unknown, ...(suggestions.size === 0 ? {} : { suggestions: Object.fromEntries(suggestions) }) },
        },
      );
    }
    const ambiguous = [...new Set(emails.map(emailKey))].filter((email) => this.ambiguous.has(email));
    if (ambiguous.length > 0) throw this.ambiguity(ambiguous);
  }

  /**
   * Whether this directory can say who is a user: an organization key reads SCIM; a personal token
   * cannot (SCIM takes organization keys only), and then nothing is known beyond its own user.
   */
  get canRead(): boolean {
    return this.api !== undefined || this.listedAll;
  }

  /**
   * What the directory says of each e-mail (a routine's recipients), without failing on the ones
   * it does not know: those get the same did-you-mean as an unknown user in the config (suggest).
   * Found with the fewest requests, as resolveEmails finds them. Call only when canRead.
   */
  async standings(emails: readonly string[]): Promise<Map<string, EmailStanding>> {
    const keys = [...new Set(emails.map(emailKey))];
    const wanted = keys.filter((email) => !this.byEmail.has(email));
    await this.find(wanted, (email) => this.filterUsers(`userName eq ${quote(email)}`), (email) => this.byEmail.has(email));
    const suggestions = await this.suggest(keys.filter((email) => !this.byEmail.has(email)));
    return new Map(
      keys.map((email): [string, EmailStanding] => {
        const user = this.byEmail.get(email);
        if (user !== undefined) return [email, this.inactive.has(user.id) ? { is: 'deactivated-user' } : { is: 'user' }];
        const near = suggestions.get(email);
        return [email, near === undefined ? { is: 'not-a-user' } : { is: 'not-a-user', didYouMean: near }];
      }),
    );
  }

  /**
   * The did-you-mean for e-mails that are no user of the instance: the closest active user's
   * e-mail, where one is a plausible typo away (nearestEmail). One piece of code for every place
   * steward names an unknown e-mail: a limit's or owner's (an error) and a routine's recipient (a
   * plan row). Users are compared from the listing, read for it when the org is small enough
   * (SUGGESTION_PAGES); on a larger org, from the users already known.
   */
  async suggest(unknown: readonly string[]): Promise<Map<string, string>> {
    const suggestions = new Map<string, string>();
    if (unknown.length === 0) return suggestions;
    const listing = this.listing;
    if (!this.listedAll && listing !== undefined && !listing.whole) {
      if (!listing.started) await listing.readFirst();
      const pages = listing.pagesLeft();
      if (pages !== undefined && pages <= SUGGESTION_PAGES) await listing.readRest();
    }
    const active = [...new Set([...this.byId.values()].filter((user) => !this.inactive.has(user.id)).map((user) => user.email))];
    for (const email of unknown) {
      const near = nearestEmail(email, active);
      if (near !== undefined) suggestions.set(emailKey(email), near);
    }
    return suggestions;
  }

  /** Finds the e-mails of ids (for display and export); ids the instance does not know stay unresolved. */
  async resolveIds(ids: readonly string[]): Promise<void> {
    const wanted = [...new Set(ids)].filter((id) => !this.byId.has(id));
    await this.find(wanted, (id) => this.readOne(id), (id) => this.byId.has(id));
  }

  /** Resolves ids and throws one error naming every id that is not a user of the instance. */
  async requireIds(ids: readonly string[]): Promise<void> {
    await this.resolveIds(ids);
    const unknown = [...new Set(ids)].filter((id) => !this.byId.has(id));
    if (unknown.length > 0) {
      throw new StewardError(
        'plan.unknown-user',
        `${unknown.length === 1 ? 'this user id is' : 'these user ids are'} not a user of the instance: ${unknown.join(', ')}`,
        'user',
        { hint: 'name users by e-mail, which stays the same across deployments', details: { unknownIds: unknown } },
      );
    }
  }

  /** The id of a resolved e-mail. */
  idOf(email: string): string {
    const key = emailKey(email);
    if (this.ambiguous.has(key)) throw this.ambiguity([key]);
    const user = this.byEmail.get(key);
    if (!user) throw new StewardError('internal.unresolved-email', `e-mail ${email} was not resolved before use`, 'tool');
    return user.id;
  }

  /**
   * Two users with one userName: which one the config means cannot be told, and taking either
   * (a deactivated account, say) would set the other's limit or routine on the wrong person.
   */
  private ambiguity(emails: readonly string[]): StewardError {
    const each = emails.map((email) => {
      const ids = [...this.ambiguous.get(email)!].map((id) => (this.inactive.has(id) ? `${id} (not active)` : id));
      return `${email} (users ${ids.join(', ')})`;
    });
    return new StewardError(
      'plan.ambiguous-user',
      `${emails.length === 1 ? 'this e-mail address is' : 'these e-mail addresses are'} the userName of more than one user of the instance: ${each.join('; ')}`,
      'server',
      { hint: 'remove the duplicate account in the identity provider, or name the user by `userId:` where the config allows it', details: { ambiguousEmails: [...emails] } },
    );
  }

  /**
   * Knows these users without asking (the ids a saved plan resolved): names not given are still
   * looked up, and what is known already (the key's own user) stays. An id keeps the first
   * e-mail given as the one it is shown by.
   */
  seed(users: readonly DirectoryUser[]): void {
    for (const user of users) {
      if (this.byEmail.has(emailKey(user.email))) continue;
      const known = this.byId.get(user.id) ?? user;
      this.byId.set(user.id, known);
      this.byEmail.set(emailKey(user.email), known);
    }
  }

  /** The e-mail of an id, if known. */
  emailOf(id: string): string | undefined {
    return this.byId.get(id)?.email;
  }

  /** A user as people read it: the e-mail when known, else the id. */
  display(id: string): string {
    return this.emailOf(id) ?? id;
  }

  private async filterUsers(filter: string): Promise<void> {
    if (!this.api) return;
    for await (const user of this.api.listScimUsers({ filter })) this.rememberScim(user);
  }

  /** One user by id; an id the instance does not know (404) stays unresolved. */
  private async readOne(id: string): Promise<void> {
    if (!this.api) return;
    try {
      this.rememberScim(await this.api.getScimUser(id));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /**
   * Finds `wanted` names by lookups or by listing, whichever costs fewer requests (see the top).
   * `listingAhead`, asked only when one name is wanted: whether more users will be looked up after
   * it (the users of live limits that pruning or an export names); then even one name is looked up
   * by page 1 of the listing, the same one request, which may hold the later ones too. Page 1 is
   * read once per directory, whoever asks first.
   */
  private async find(
    wanted: readonly string[],
    lookUp: (name: string) => Promise<void>,
    known: (name: string) => boolean,
    listingAhead?: () => Promise<boolean>,
  ): Promise<void> {
    const listing = this.listing;
    if (wanted.length === 0 || this.listedAll || listing === undefined || listing.whole) return;
    const lookUpEach = (names: readonly string[]) => inParallel(names, lookUp);
    if (!listing.started) {
      if (wanted.length === 1 && !(await listingAhead?.())) return lookUpEach(wanted);
      await listing.readFirst();
      if (listing.whole) return;
    }
    const left = wanted.filter((name) => !known(name));
    if (left.length === 0) return;
    // Without a total the listing's length is unknown: lookups are the bounded choice.
    const pages = listing.pagesLeft();
    if (pages === undefined || pages > left.length) return lookUpEach(left);
    await listing.readRest();
    // A listing that shifted while it was read is not whole: whoever it missed is looked up by name.
    if (!listing.whole) await lookUpEach(wanted.filter((name) => !known(name)));
  }

  private rememberScim(user: ScimUser): void {
    if (this.caller?.userId !== undefined && user.id === this.caller.userId) throw scimAnswersUserIds(user, this.caller);
    if (user.active === false) this.inactive.add(user.id);
    const known = { id: user.id, email: user.userName };
    this.remember(known, true);
    // Further addresses find the same user (most users have one, their userName).
    for (const email of user.emails ?? []) {
      if (email.value === user.userName) continue;
      const key = emailKey(email.value);
      if (!this.byEmail.has(key)) this.byEmail.set(key, known);
    }
  }

  /** `listed`: the user comes from a SCIM answer, where two users with one userName are ambiguous. */
  private remember(user: DirectoryUser, listed = false): void {
    const key = emailKey(user.email);
    const earlier = this.byEmail.get(key);
    if (listed) {
      if (earlier !== undefined && earlier.id !== user.id && this.named.has(key)) {
        const ids = this.ambiguous.get(key) ?? new Set([earlier.id]);
        this.ambiguous.set(key, ids.add(user.id));
      }
      this.named.add(key);
    }
    this.byEmail.set(key, user);
    this.byId.set(user.id, user);
  }
}

/**
 * SCIM listed the key's own user under whoami's `user.id`, not its membership id: on this instance
 * SCIM ids are user ids (gaps.md keeps it OPEN), and sending them as `userId` would name nobody.
 */
function scimAnswersUserIds(user: ScimUser, caller: CallerUser): StewardError {
  return new StewardError(
    'plan.scim-user-ids',
    `SCIM lists this API key's own user (${user.userName}) under id ${user.id}, which whoami gives as the user id; its membership id is ${caller.id}. On this instance SCIM user ids are not the membership ids that credit limits and routines take, so steward cannot resolve users by e-mail here`,
    'server',
    { hint: 'name users by `userId:` (their membership ids) where the config allows it, and report the instance\'s SCIM ids to the platform' },
  );
}

/**
 * The e-mail of `candidates` a typo away from `email`, or undefined: at most a third of its local
 * part's length of edits (at least one) over the whole address, so `grase@acme.example` finds
 * `grace@acme.example` and `nobody@acme.example` finds nobody. Ties go to the first candidate.
 */
export function nearestEmail(email: string, candidates: Iterable<string>): string | undefined {
  const wanted = emailKey(email);
  const allowed = Math.max(1, Math.floor(wanted.slice(0, Math.max(0, wanted.lastIndexOf('@'))).length / 3));
  let best: { email: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const key = emailKey(candidate);
    if (key === wanted) continue;
    // A length gap larger than the allowance can never be within it: skipped without the O(n·m) distance.
    if (Math.abs(key.length - wanted.length) > allowed) continue;
    const distance = editDistance(wanted, key);
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { email: candidate, distance };
  }
  return best?.email;
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
