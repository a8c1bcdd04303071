// Users by e-mail and by id, resolved through SCIM with the fewest requests: config names users
// by e-mail (ids differ between deployments), the API wants membership ids.
import type { PlatformApi } from '../api/platform.js';
import type { ScimUser } from '../api/types.js';
import { emailKey } from '../domain/rules.js';
import { StewardError } from '../errors.js';

/** Up to this many unresolved names are looked up one filter request each; more, by listing all. */
export const FILTER_LOOKUP_MAX = 10;

export interface DirectoryUser {
  id: string;
  email: string;
}

/** The user an API key acts as; whoami may give its id without an e-mail. */
export interface CallerUser {
  id: string;
  email: string | undefined;
}

export class Directory {
  private readonly byEmail = new Map<string, DirectoryUser>();
  private readonly byId = new Map<string, DirectoryUser>();
  private listedAll = false;

  constructor(
    private readonly api: Pick<PlatformApi, 'listScimUsers'> | undefined,
    /** The user the API key acts as (whoami), if any: none for an organization key tied to no user. */
    readonly caller: CallerUser | undefined,
    /** Whose key: a personal token acts only as its user; an organization key acts for anyone by `userId`. */
    readonly keyScope: 'user' | 'organization' = api === undefined ? 'user' : 'organization',
  ) {
    if (caller?.email !== undefined) this.remember({ id: caller.id, email: caller.email });
  }

  /** A directory that knows exactly these users and never calls the API (tests, offline diffs). */
  static of(users: DirectoryUser[], caller?: CallerUser, keyScope: 'user' | 'organization' = 'user'): Directory {
    const directory = new Directory(undefined, caller, keyScope);
    for (const user of users) directory.remember(user);
    directory.listedAll = true;
    return directory;
  }

  /** Resolves e-mails to ids; throws one error naming every address the instance does not know. */
  async resolveEmails(emails: readonly string[]): Promise<void> {
    const wanted = [...new Set(emails.map(emailKey))].filter((email) => !this.byEmail.has(email));
    if (wanted.length > 0 && !this.listedAll) {
      if (wanted.length > FILTER_LOOKUP_MAX) {
        await this.listAll();
      } else {
        for (const email of wanted) await this.lookUp(`userName co ${quote(email)}`);
      }
    }
    const unknown = wanted.filter((email) => !this.byEmail.has(email));
    if (unknown.length > 0) {
      throw new StewardError(
        'plan.unknown-user',
        `${unknown.length === 1 ? 'this e-mail address is' : 'these e-mail addresses are'} not a user of the instance: ${unknown.join(', ')}`,
        'user',
        { hint: 'check the spelling, or invite the user first' },
      );
    }
  }

  /** Finds the e-mails of ids (for display and export); ids the instance does not know stay unresolved. */
  async resolveIds(ids: readonly string[]): Promise<void> {
    const wanted = [...new Set(ids)].filter((id) => !this.byId.has(id));
    if (wanted.length === 0 || this.listedAll) return;
    if (wanted.length > FILTER_LOOKUP_MAX) {
      await this.listAll();
      return;
    }
    for (const id of wanted) await this.lookUp(`id eq ${quote(id)}`);
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
        { hint: 'name users by e-mail, which stays the same across deployments' },
      );
    }
  }

  /** The id of a resolved e-mail. */
  idOf(email: string): string {
    const user = this.byEmail.get(emailKey(email));
    if (!user) throw new StewardError('internal.unresolved-email', `e-mail ${email} was not resolved before use`, 'tool');
    return user.id;
  }

  /** The e-mail of an id, if known. */
  emailOf(id: string): string | undefined {
    return this.byId.get(id)?.email;
  }

  /** A user as people read it: the e-mail when known, else the id. */
  display(id: string): string {
    return this.emailOf(id) ?? id;
  }

  private async lookUp(filter: string): Promise<void> {
    if (!this.api) return;
    for await (const user of this.api.listScimUsers({ filter })) this.rememberScim(user);
  }

  private async listAll(): Promise<void> {
    if (!this.api) return;
    for await (const user of this.api.listScimUsers()) this.rememberScim(user);
    this.listedAll = true;
  }

  private rememberScim(user: ScimUser): void {
    this.remember({ id: user.id, email: user.userName });
    for (const email of user.emails ?? []) {
      if (!this.byEmail.has(emailKey(email.value))) this.byEmail.set(emailKey(email.value), { id: user.id, email: user.userName });
    }
  }

  private remember(user: DirectoryUser): void {
    this.byEmail.set(emailKey(user.email), user);
    this.byId.set(user.id, user);
  }
}

function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
