// Which folders carry which label (`folders:` on a label, by path or id). Read with one listing of
// the organization's folders with `include=labels` (folders are few: ⌈folders / 100⌉ requests),
// made only when a managed label can be on a folder. Written as one PATCH {add, remove} per folder.
// A label about to be deleted is first taken off every folder, because the server refuses to
// delete a label in use (a label on a folder counts in its usage). Restricted (personal) folders
// are listed only by their owner: where a deleted label's usage is more than the documents and
// folders steward sees, the plan says the delete may be refused.
import type { FolderRecord, Label } from '../../api/types.js';
import type { Kind, LabelConfig } from '../../config/types.js';
import { unreachable } from '../../errors.js';
import { closest } from '../../config/suggest.js';
import { labelKey, UUID_PATTERN } from '../../domain/rules.js';
import type { PlanStep, PlanWarning } from '../../model/plan.js';
import type { LiveDocumentLabels } from './documentLabels.js';
import type { KindExport, ResourceKind } from '../../model/kind.js';
import { compareText } from '../shared.js';
import { desiredLabels, everyLabel, labelFates, labelNames, labelStepId, type DesiredLabels, type LabelFate } from './labels.js';
import { UNLISTED_FOLDER_REASON } from '../protection.js';

declare module '../../model/plan.js' {
  interface KindSteps {
    /** A label on a folder: the folder as shown (its path, else its id) and the label's name; `ref.folder` is its id. */
    folderLabels: { state: { folder: string; label: string }; ref: { folder: string; label: string; folderPath?: string } };
  }
}

/** The folders the listing showed, and which of them carry each label (by label key). */
export interface LiveFolderLabels {
  folders: FolderRecord[];
  /** Label key → ids of the folders carrying it. */
  carrying: Map<string, Set<string>>;
  /** Whether the folders were read (nothing managed could be on one otherwise). */
  read: boolean;
}

/** A label whose folders this plan manages, with the name it has live now (if any). */
interface ManagedLabel {
  /** Its position in the config's `labels`; none for a live label being deleted. */
  index: number | undefined;
  name: string;
  liveName: string | undefined;
  /** usage_count of the live label: zero means it is on no folder. */
  usage: number;
  /** Declared folders (paths or ids), or none for a label being deleted. */
  folders: string[];
  /** Take it off folders not listed. */
  prune: boolean;
  /** The label is being deleted. */
  deleted: boolean;
}

function managedLabels(desired: DesiredLabels, live: readonly Label[]): ManagedLabel[] {
  return labelFates(desired, live).flatMap((fate: LabelFate): ManagedLabel[] => {
    switch (fate.fate) {
      case 'create':
        return fate.desired.folders === undefined ? [] : [{ index: fate.desired.index, name: fate.desired.name, liveName: undefined, usage: 0, folders: fate.desired.folders, prune: fate.desired.pruneFolders, deleted: false }];
      case 'keep':
      case 'rename':
        return fate.desired.folders === undefined
          ? []
          : [{ index: fate.desired.index, name: fate.desired.name, liveName: fate.live.name, usage: fate.live.usage_count, folders: fate.desired.folders, prune: fate.desired.pruneFolders, deleted: false }];
      case 'delete':
        return [{ index: undefined, name: fate.live.name, liveName: fate.live.name, usage: fate.live.usage_count, folders: [], prune: true, deleted: true }];
      case 'ignore':
        return [];
      default:
        return unreachable(fate);
    }
  });
}

/** The folder a declared entry names: its id when it is one, else the folder of that path. */
function folderOf(entry: string, folders: readonly FolderRecord[]): FolderRecord | undefined {
  return (UUID_PATTERN.test(entry) ? folders.find((folder) => folder.id.toLowerCase() === entry.toLowerCase()) : undefined) ?? folders.find((folder) => folder.path === entry);
}

/** `: did you mean "sandbox"?` for a path (or a folder's name) close to one of the folders, or nothing. */
function nearFolder(entry: string, folders: readonly FolderRecord[]): string {
  const paths = folders.flatMap((folder) => (folder.path === null ? [] : [folder.path]));
  const byName = folders.find((folder) => folder.path !== null && folder.name?.toLowerCase() === entry.toLowerCase());
  const near = byName?.path ?? closest(entry, paths);
  return near === undefined ? '' : ` (did you mean "${near}"? folders are named by path)`;
}

// Export: the folders of each label (by path, or id where the server gives no path; one listing of
// the folders, made when some label is in use), written into the label's entry; a promotion reads
// only those of the labels whose folders its config manages.
const folderLabelsExport: KindExport<DesiredLabels, LiveFolderLabels, Map<string, string[]>> = {
  async read(context) {
    const live = (context.live.labels ?? []) as Label[];
    const managed = context.declared === undefined ? undefined : new Set((context.declared.labels ?? []).flatMap((label) => (label.folders === undefined ? [] : [labelKey(label.name)])));
    const included = live.filter((label) => managed === undefined || managed.has(labelKey(label.name)));
    const found = await context.read(everyLabel(included));
    const byId = new Map(found.folders.map((folder) => [folder.id, folder]));
    // By the label's live name: its entry in the labels section.
    return new Map(included.map((label) => [label.name, [...(found.carrying.get(labelKey(label.name)) ?? [])].map((id) => byId.get(id)?.path ?? id)]));
  },
  section: (folders, { section }) =>
    ((section ?? []) as LabelConfig[]).map((label) => (folders.has(label.name) ? { ...label, folders: [...folders.get(label.name)!].sort(compareText) } : label)),
  holds: () => 'folders',
  styles: { inline: ['folders'] },
  pruning: () => '`pruneFolders: true`',
};

export const folderLabels: ResourceKind<DesiredLabels, LiveFolderLabels, 'folderLabels'> = {
  kind: 'folderLabels',
  presentation: {
    noun: ['folder label', 'folder labels'],
    title(step) {
      const folder = `folder "${step.ref.folderPath ?? step.ref.folder}"`;
      return step.action === 'delete' ? `label "${step.ref.label}" off ${folder}` : `label "${step.ref.label}" on ${folder}`;
    },
    details: false,
  },
  order: { level: 2 },
  // A folder's labels belong to their label: targeted by the label's name, with it.
  targeting: { noun: 'label', names: labelNames, pruned: (config) => config.prune?.labels === true, partOf: 'labels', stepName: (step) => step.ref.label ?? step.key },
  export: folderLabelsExport,
  readAfter: ['labels'] satisfies Kind[],

  declared: (config) => (config.labels ?? []).some((label) => label.folders !== undefined) || config.prune?.labels === true,

  emails: () => [],

  desired: desiredLabels,

  async read({ api, live }, desired) {
    const managed = managedLabels(desired, (live.labels ?? []) as Label[]);
    // A label in use may be on a folder; one to put on folders needs them found. Otherwise nothing to read.
    const needed = managed.some((label) => label.folders.length > 0 || (label.liveName !== undefined && label.usage > 0));
    const result: LiveFolderLabels = { folders: [], carrying: new Map(), read: needed };
    if (!needed) return result;
    for await (const folder of api.listFolders({ include: ['labels'] })) {
      result.folders.push(folder);
      for (const name of folder.labels ?? []) {
        const key = labelKey(name);
        result.carrying.set(key, (result.carrying.get(key) ?? new Set()).add(folder.id));
      }
    }
    return result;
  },

  diff(desired, live, allLive) {
    const steps: PlanStep<'folderLabels'>[] = [];
    const warnings: PlanWarning[] = [];
    const dependencies: { step: string; on: string }[] = [];
    const byId = new Map(live.folders.map((folder) => [folder.id, folder]));
    for (const label of managedLabels(desired, (allLive.labels ?? []) as Label[])) {
      // Folders carry the label under its live name until a rename is applied (by id, they keep it).
      const carrying = live.carrying.get(labelKey(label.liveName ?? label.name)) ?? new Set<string>();
      const wanted = new Set<string>();
      label.folders.forEach((entry, position) => {
        const folder = folderOf(entry, live.folders);
        if (folder === undefined) {
          warnings.push({
            code: 'folderLabels.missing-folder',
            namesMissing: true,
            message: `folder "${entry}" is not a folder of this deployment, so label "${label.name}" is not applied to it${nearFolder(entry, live.folders)}`,
            ...(label.index === undefined ? {} : { configPath: ['labels', label.index, 'folders', position] }),
          });
          return;
        }
        wanted.add(folder.id);
        if (carrying.has(folder.id)) return;
        steps.push({ ...linkStep(label.name, folder), action: 'create', dependsOn: [labelStepId(label.name)], after: { folder: displayed(folder), label: label.name } });
      });
      if (label.prune) {
        for (const id of carrying) {
          if (wanted.has(id)) continue;
          const folder = byId.get(id)!;
          const step: PlanStep<'folderLabels'> = {
            ...linkStep(label.name, folder),
            action: 'delete',
            before: { folder: displayed(folder), label: label.name },
            reason: label.deleted ? 'the label is being deleted' : UNLISTED_FOLDER_REASON,
          };
          steps.push(step);
          dependencies.push({ step: labelStepId(label.name), on: step.id });
        }
      }
      if (label.deleted && live.read) warnUnseenUsage(label, carrying.size, allLive.documentLabels as LiveDocumentLabels | undefined, warnings);
    }
    return { steps, warnings, dependencies };
  },

  current(step, live) {
    const { folder, label } = step.ref;
    const found = live.folders.find((candidate) => candidate.id === folder);
    return found !== undefined && live.carrying.get(labelKey(label))?.has(folder) === true ? { folder: displayed(found), label } : undefined;
  },

  /** One PATCH per folder, carrying every label added to it and removed from it. */
  async apply(steps, { api, attempt }) {
    for (const [folder, folderSteps] of byFolder(steps)) {
      const add = folderSteps.filter((step) => step.action === 'create').map((step) => step.ref.label);
      const remove = folderSteps.filter((step) => step.action === 'delete').map((step) => step.ref.label);
      const path = folderSteps[0]!.ref.folderPath;
      await attempt(folderSteps, () => api.patchFolderLabels(folder, { add, remove }, path));
    }
  },

  writeRequests: (steps) => byFolder(steps).size,
};

/**
 * A deleted label's usage counts documents and folders; when it is more than the documents and
 * folders steward sees carrying it (restricted folders are listed only by their owner), the
 * server will refuse the delete until the label is off the others too: said before apply.
 */
function warnUnseenUsage(label: ManagedLabel, onFolders: number, documents: LiveDocumentLabels | undefined, warnings: PlanWarning[]): void {
  const onDocuments = documents?.get(labelKey(label.name))?.size;
  if (onDocuments === undefined) return;
  const unseen = label.usage - onDocuments - onFolders;
  if (unseen <= 0) return;
  warnings.push({
    code: 'labels.delete-in-use',
    message: `label "${label.name}" is applied ${unseen} more time${unseen === 1 ? '' : 's'} than the documents and organization folders steward sees (restricted folders are listed only by their owner); its delete will be refused (409) until it is taken off ${unseen === 1 ? 'that one' : 'them'} in the app`,
  });
}

/** A folder as steps show it: its path, or its id when the server gave none. */
function displayed(folder: FolderRecord): string {
  return folder.path ?? folder.id;
}

function linkStep(label: string, folder: FolderRecord) {
  return {
    id: `folderLabels/${folder.id}/${labelKey(label)}`,
    kind: 'folderLabels' as const,
    key: `${label} @ ${displayed(folder)}`,
    dependsOn: [] as string[],
    ref: { folder: folder.id, label, folderPath: displayed(folder) },
  };
}

function byFolder(steps: readonly PlanStep<'folderLabels'>[]): Map<string, PlanStep<'folderLabels'>[]> {
  const grouped = new Map<string, PlanStep<'folderLabels'>[]>();
  for (const step of steps) grouped.set(step.ref.folder, [...(grouped.get(step.ref.folder) ?? []), step]);
  return grouped;
}
