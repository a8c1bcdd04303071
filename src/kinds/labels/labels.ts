// Label definitions. Identity is the name, case-insensitively (as on the server). A declared
// `renamedFrom` turns a live label of a former name into a rename (PUT with a new name), so the
// documents that carry it keep it; a delete + create would strip them.
import type { Label, LabelCreate, LabelUpdate, Whoami } from '../../api/types.js';
import type { ConfigPath, LabelConfig, StewardConfig } from '../../config/types.js';
import type { AccessProblem } from '../../resolve/preflight.js';
import { unreachable } from '../../errors.js';
import { labelKey } from '../../domain/rules.js';
import { changedFields, holdIgnored, pick } from '../../model/fields.js';
import type { FieldChange, PlanStep, PlanWarning } from '../../model/plan.js';
import { ignoredFields } from '../../config/ignore.js';
import { type DesiredInput, type KindExport, type ResourceKind } from '../../model/kind.js';
import { compareText, expectTaken, textOf, withOwnFlags } from '../shared.js';
import { protectedInEnvironment, PRUNED_REASON } from '../protection.js';

export const LABEL_FIELDS = ['color', 'description', 'verified', 'homepage'] as const;

declare module '../../model/plan.js' {
  interface KindSteps {
    /** A label's name and the fields the config declares; `ref.liveName`: its name on the server, for an update or a delete. */
    labels: { state: LabelState; ref: { liveName?: string } };
  }
}

/** The compared fields of a label. */
export type LabelState = Partial<Pick<Label, 'name' | (typeof LABEL_FIELDS)[number]>>;

export interface DesiredLabel {
  /** Its position in the config's `labels` (warnings point at it); none where no config declares it (an export's read). */
  index?: number;
  name: string;
  renamedFrom: string[];
  /** Only the fields the config declares are managed. */
  fields: Partial<Pick<Label, (typeof LABEL_FIELDS)[number]>>;
  /** Document identifiers that carry it, when the config manages them. */
  documents: string[] | undefined;
  pruneDocuments: boolean;
  /** Folders (by path or id) that carry it, when the config manages them. */
  folders: string[] | undefined;
  pruneFolders: boolean;
  /** Fields written on create and never changed afterwards (`ignore:`, the label's and the kind's). */
  ignore: string[];
}

export interface DesiredLabels {
  labels: DesiredLabel[];
  prune: boolean;
  isProtected: (name: string) => boolean;
}

/** What becomes of each label, declared or live. Shared by labels, documentLabels and folderLabels. */
export type LabelFate =
  | { fate: 'create'; desired: DesiredLabel }
  | { fate: 'keep'; desired: DesiredLabel; live: Label }
  | { fate: 'rename'; desired: DesiredLabel; live: Label }
  | { fate: 'delete'; live: Label }
  | { fate: 'ignore'; live: Label };

/** Matches declared labels to live ones: by name, then by a former name; the rest are pruned or left. */
export function labelFates(desired: DesiredLabels, live: readonly Label[]): LabelFate[] {
  const byKey = new Map(live.map((label) => [labelKey(label.name), label]));
  const claimed = new Set<string>();
  const fates: LabelFate[] = [];
  for (const label of desired.labels) {
    const same = byKey.get(labelKey(label.name));
    if (same) {
      claimed.add(labelKey(same.name));
      fates.push({ fate: 'keep', desired: label, live: same });
      continue;
    }
    const former = label.renamedFrom.map((name) => byKey.get(labelKey(name))).find((found) => found && !claimed.has(labelKey(found.name)));
    if (former) {
      claimed.add(labelKey(former.name));
      fates.push({ fate: 'rename', desired: label, live: former });
    } else {
      fates.push({ fate: 'create', desired: label });
    }
  }
  for (const label of live) {
    if (claimed.has(labelKey(label.name))) continue;
    const doomed = desired.prune && !desired.isProtected(label.name);
    fates.push(doomed ? { fate: 'delete', live: label } : { fate: 'ignore', live: label });
  }
  return fates;
}

/** The desired labels of a config. */
export function desiredLabels({ config, environment }: DesiredInput): DesiredLabels {
  return {
    labels: (config.labels ?? []).map((label, index) => {
      const fields: DesiredLabel['fields'] = {};
      for (const field of LABEL_FIELDS) if (label[field] !== undefined) Object.assign(fields, { [field]: label[field] });
      return {
        index,
        name: label.name,
        renamedFrom: label.renamedFrom ?? [],
        fields,
        documents: label.documents,
        pruneDocuments: label.pruneDocuments === true,
        folders: label.folders,
        pruneFolders: label.pruneFolders === true,
        ignore: ignoredFields(config, 'labels', label),
      };
    }),
    prune: config.prune?.labels === true,
    isProtected: (name) =>
      protectedInEnvironment(environment, 'labels', [name]) ||
      (config.labels ?? []).some((label) => label.protect === true && labelKey(label.name) === labelKey(name)),
  };
}

/** The label names `--target labels/NAME` takes: each declared name, and the names it renames. */
export function labelNames(config: StewardConfig): string[] {
  return (config.labels ?? []).flatMap((label) => [label.name, ...(label.renamedFrom ?? [])]);
}

/** Only an Organization Admin may set verified or homepage on a label. */
function labelAccessProblems(whoami: Whoami, config: StewardConfig): AccessProblem[] {
  if (whoami.orgRole === 'ORG_ADMIN') return [];
  const labels = config.labels ?? [];
  const privileged = labels.filter((label) => label.verified === true || label.homepage === true);
  if (privileged.length === 0) return [];
  const at = labels.flatMap((label, index): ConfigPath[] => [
    ...(label.verified === true ? [['labels', index, 'verified']] : []),
    ...(label.homepage === true ? [['labels', index, 'homepage']] : []),
  ]);
  return [{ problem: `only an Organization Admin may set verified or homepage on labels (${privileged.map((label) => label.name).join(', ')})`, at }];
}

/** The plan-step id of a label; documentLabels and folderLabels steps depend on it. */
export function labelStepId(name: string): string {
  return `labels/${labelKey(name)}`;
}

// Export: every label, sorted by name; its fields only when labels were asked for, not only their
// documents or folders (documentLabels.ts and folderLabels.ts write those into the same entries).
// A promotion gives each the config's own flags for it.

/** A desired state that covers every live label and changes nothing: what export reads their documents and folders with. */
export function everyLabel(live: readonly Label[]): DesiredLabels {
  return {
    labels: live.map((label) => ({ name: label.name, renamedFrom: [], fields: {}, documents: [], pruneDocuments: false, folders: [], pruneFolders: false, ignore: [] })),
    prune: false,
    isProtected: () => false,
  };
}

const labelsExport: KindExport<DesiredLabels, Label[], Label[]> = {
  read: (context) => context.read({ labels: [], prune: false, isProtected: () => false }),
  section: (live, { whole }) => labelsConfig(live, whole),
  holds: (_, { whole, parts }) =>
    whole ? (parts.length === 0 ? 'labels' : `labels with the ${parts.join(' and ')} that carry them`) : `the ${parts.join(' and ')} that carry each label`,
  // Colours quoted, as the examples write them.
  styles: { quoted: ['color'] },
  pruning: (parts) => (parts.length === 0 ? undefined : `${parts.join(' or ')} on labels`),
  promoted: { withFlags: withLabelFlags },
};

/**
 * A promoted label with the flags of the config's label of its name (`declared`): `protect`,
 * `ignore`, `pruneDocuments` and `pruneFolders` where the source gives its documents or folders,
 * and its former names, but for one the source still has as a label of its own (`promoted`: every
 * label of the source), which is no rename there.
 */
function withLabelFlags(label: LabelConfig, declared: LabelConfig, promoted: readonly LabelConfig[]): LabelConfig {
  const names = new Set(promoted.map((other) => labelKey(other.name)));
  const renamedFrom = (declared.renamedFrom ?? []).filter((former) => !names.has(labelKey(former)));
  return withOwnFlags(
    {
      ...label,
      ...(renamedFrom.length > 0 ? { renamedFrom } : {}),
      ...(declared.pruneDocuments === true && label.documents !== undefined ? { pruneDocuments: true } : {}),
      ...(declared.pruneFolders === true && label.folders !== undefined ? { pruneFolders: true } : {}),
    },
    declared,
  );
}

/** Every label, sorted by name case-insensitively: with every field when `fields`, else the name only. */
export function labelsConfig(live: readonly Label[], fields: boolean): LabelConfig[] {
  return [...live]
    .sort((a, b) => compareText(labelKey(a.name), labelKey(b.name)))
    .map((label) => ({ name: label.name, ...(fields ? { color: label.color, description: label.description, verified: label.verified, homepage: label.homepage } : {}) }));
}

export const labels: ResourceKind<DesiredLabels, Label[], 'labels'> = {
  kind: 'labels',
  presentation: { noun: ['label', 'labels'], title: (step) => `label "${step.key}"` },
  order: { level: 1 },
  entries: {
    keyOf: (entry) => textOf(entry.name),
    hasKey: (entry, key) => typeof entry.name === 'string' && labelKey(entry.name) === labelKey(key),
    identityFields: ['name'],
  },
  targeting: { noun: 'label', names: labelNames, pruned: (config) => config.prune?.labels === true },
  access: { problems: labelAccessProblems },
  export: labelsExport,
  readAfter: [],

  declared: (config) => config.labels !== undefined || config.prune?.labels === true,

  emails: () => [],

  desired: desiredLabels,

  read: ({ api }) => api.listLabels(),

  diff(desired, live) {
    const steps: PlanStep<'labels'>[] = [];
    const warnings: PlanWarning[] = [];
    for (const fate of labelFates(desired, live)) {
      switch (fate.fate) {
        case 'create':
          steps.push({ ...base(fate.desired.name), action: 'create', after: { name: fate.desired.name, ...fate.desired.fields }, ...ignoring(fate.desired.ignore, []) });
          break;
        case 'keep':
        case 'rename': {
          const declared = { name: fate.desired.name, ...fate.desired.fields };
          const before = asTarget(pick(fate.live, Object.keys(declared)), declared);
          // Ignored fields stay as live: never compared, never sent.
          const { state: after, ignored } = holdIgnored(declared, before, fate.desired.ignore);
          const fields = changedFields(before, after);
          if (fate.fate === 'keep') warnOnLeftoverFormerNames(fate.desired, live, warnings);
          if (fields.length === 0) break;
          steps.push({
            ...base(fate.desired.name),
            ref: { liveName: fate.live.name },
            action: 'update',
            before,
            after,
            fields,
            ...(fate.fate === 'rename' ? { reason: `renamed from "${fate.live.name}"; documents and folders keep it` } : {}),
            ...ignoring(fate.desired.ignore, ignored),
          });
          break;
        }
        case 'delete':
          steps.push({
            ...base(fate.live.name),
            ref: { liveName: fate.live.name },
            action: 'delete',
            before: pick(fate.live, ['name', ...LABEL_FIELDS]),
            reason: PRUNED_REASON,
          });
          break;
        case 'ignore':
          break;
        default:
          unreachable(fate);
      }
    }
    return { steps, warnings };
  },

  current(step, live) {
    const target = step.action === 'delete' ? step.before : step.after;
    const names = [String(target.name), step.ref.liveName].filter((name): name is string => name !== undefined);
    const label = names.map((name) => live.find((candidate) => labelKey(candidate.name) === labelKey(name))).find(Boolean);
    return label === undefined ? undefined : asTarget(pick(label, Object.keys(target)), target);
  },

  async apply(steps, { api, attempt }) {
    for (const step of steps) await attempt([step], () => applyLabelStep(step, api));
  },

  writeRequests: (steps) => steps.length,
};

async function applyLabelStep(step: PlanStep<'labels'>, api: Parameters<ResourceKind['apply']>[1]['api']): Promise<void> {
  switch (step.action) {
    case 'create': {
      // A lost response is judged by the executor, which reads the labels back before any resend.
      const created = await api.createLabel(labelCreate(step.after));
      expectTaken(`creating label "${String(step.after.name)}"`, step.after, asTarget({ ...created }, step.after));
      return;
    }
    case 'update':
    case 'replace': {
      const changes: LabelUpdate = {};
      for (const field of step.fields) Object.assign(changes, { [field.path]: field.after });
      const name = step.ref.liveName ?? String(step.before.name);
      const updated = await api.updateLabel(name, changes);
      expectTaken(`updating label "${name}"`, changes, asTarget({ ...updated }, changes));
      return;
    }
    case 'delete':
      await api.deleteLabel(step.ref.liveName ?? String(step.before.name));
      return;
    default:
      return unreachable(step);
  }
}

/**
 * Live label fields as the plan compares them with `target`: a colour is hex, whose letters
 * carry no meaning in either case, so a server that writes `#0366D6` for `#0366d6` holds the
 * colour asked for (and is not planned as a change forever).
 */
function asTarget<Fields extends { color?: unknown }>(live: Fields, target: { color?: unknown }): Fields {
  const { color } = live;
  if (typeof color === 'string' && typeof target.color === 'string' && color !== target.color && color.toLowerCase() === target.color.toLowerCase()) {
    return { ...live, color: target.color };
  }
  return live;
}

/** A create step's `after` as the create body: its name and the label fields it declares. */
function labelCreate(after: Record<string, unknown>): LabelCreate {
  const body: LabelCreate = { name: String(after.name) };
  for (const field of LABEL_FIELDS) if (field in after) Object.assign(body, { [field]: after[field] });
  return body;
}

/** The step fields that carry an object's ignored fields, when it has any. */
function ignoring(ignore: readonly string[], ignored: readonly FieldChange[]): Pick<PlanStep<'labels'>, 'ignore' | 'ignored'> {
  return { ...(ignore.length === 0 ? {} : { ignore: [...ignore] }), ...(ignored.length === 0 ? {} : { ignored: [...ignored] }) };
}

function base(name: string) {
  return { id: labelStepId(name), kind: 'labels' as const, key: name, dependsOn: [], ref: {} };
}

function warnOnLeftoverFormerNames(label: DesiredLabel, live: readonly Label[], warnings: PlanWarning[]): void {
  for (const former of label.renamedFrom) {
    const leftover = live.find((candidate) => labelKey(candidate.name) === labelKey(former));
    if (leftover) {
      warnings.push({
        code: 'labels.rename-target-exists',
        message: `label "${label.name}" already exists, so "${leftover.name}" (listed in its renamedFrom) is not renamed; documents carrying "${leftover.name}" keep that label`,
      });
    }
  }
}
