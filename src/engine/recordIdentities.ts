// What a plan records of what it resolved, for `apply PLANFILE` (see resolve's IdentityBook):
// every user the read kinds name (by e-mail or id), every user a step or a kind's live state
// refers to that the directory knows (shown by e-mail), and the groups and models resolved.
import type { Kind, StewardConfig } from '../config/types.js';
import { emailKey } from '../domain/rules.js';
import type { ResourceKind } from '../model/kind.js';
import type { Directory, DirectoryUser } from '../resolve/directory.js';
import type { IdentityBook } from '../resolve/identities.js';
import type { PlanIdentities, PlanStep } from '../model/plan.js';

export function recordIdentities(
  book: IdentityBook,
  context: { kinds: readonly ResourceKind[]; config: StewardConfig; directory: Directory; steps: readonly PlanStep[]; live: Partial<Record<Kind, unknown>> },
): PlanIdentities {
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
  // Users a kind's live state names (undeclared limits) are named for the plan, and for protection by e-mail.
  for (const kind of context.kinds) {
    const live = context.live[kind.kind];
    if (live !== undefined) for (const id of kind.liveUserIds?.(live) ?? []) add(id, directory.emailOf(id));
  }
  return {
    users: users.map(({ email, id }) => ({ email, id })),
    groups: book.recordedGroups,
    models: book.recordedModels,
  };
}
