// Which documents carry which label. Read through the documents list filtered by one label at a
// time (right whether the server's filter means "any" or "all"), never by listing every
// document; written as one PATCH {add, remove} per document. A label about to be deleted is
// first taken off every document, because the server refuses to delete a label in use.
import type { Label } from '../api/types.js';
import type { Kind } from '../config/types.js';
import { labelKey } from '../domain/rules.js';
import type { PlanStep } from '../plan/types.js';
import { attempt, type ResourceKind, type StepOutcome } from './kind.js';
import { desiredLabels, labelFates, labelStepId, type DesiredLabels, type LabelFate } from './labels.js';

/** Label key (of the label's name once the plan has run) → the documents carrying it. */
export type LiveDocumentLabels = Map<string, Map<string, string>>;

/** A label whose document links this plan manages, with the name it has live now (if any). */
interface ManagedLabel {
  /** The label's name once labels are applied (the declared name, or the live one if pruned). */
  name: string;
  liveName: string | undefined;
  /** usage_count of the live label; zero means there is nothing to read. */
  inUse: boolean;
  /** Declared documents, or none for a label being deleted. */
  documents: string[];
  /** Take it off documents not listed. */
  prune: boolean;
}

function managedLabels(desired: DesiredLabels, live: readonly Label[]): ManagedLabel[] {
  return labelFates(desired, live).flatMap((fate: LabelFate): ManagedLabel[] => {
    switch (fate.fate) {
      case 'create':
        return fate.desired.documents === undefined
          ? []
          : [{ name: fate.desired.name, liveName: undefined, inUse: false, documents: fate.desired.documents, prune: fate.desired.pruneDocuments }];
      case 'keep':
      case 'rename':
        return fate.desired.documents === undefined
          ? []
          : [{ name: fate.desired.name, liveName: fate.live.name, inUse: fate.live.usage_count > 0, documents: fate.desired.documents, prune: fate.desired.pruneDocuments }];
      case 'delete':
        return [{ name: fate.live.name, liveName: fate.live.name, inUse: fate.live.usage_count > 0, documents: [], prune: true }];
      case 'ignore':
        return [];
    }
  });
}

export const documentLabels: ResourceKind<DesiredLabels, LiveDocumentLabels> = {
  kind: 'documentLabels',
  readAfter: ['labels'] satisfies Kind[],

  declared: (config) =>
    (config.labels ?? []).some((label) => label.documents !== undefined) || config.prune?.labels === true,

  emails: () => [],

  desired: desiredLabels,

  async read({ api, live }, desired) {
    const liveLabels = (live.labels ?? []) as Label[];
    const result: LiveDocumentLabels = new Map();
    await Promise.all(
      managedLabels(desired, liveLabels).map(async (label) => {
        const documents = new Map<string, string>();
        result.set(labelKey(label.name), documents);
        if (label.liveName === undefined || !label.inUse) return;
        for await (const document of api.listDocuments({ labels: [label.liveName] })) {
          documents.set(document.identifier, document.name);
        }
      }),
    );
    return result;
  },

  diff(desired, live, allLive) {
    const steps: PlanStep[] = [];
    const dependencies: { step: string; on: string }[] = [];
    for (const label of managedLabels(desired, (allLive.labels ?? []) as Label[])) {
      const carrying = live.get(labelKey(label.name)) ?? new Map<string, string>();
      const wanted = new Set(label.documents);
      for (const document of label.documents) {
        if (carrying.has(document)) continue;
        steps.push({ ...linkStep(label.name, document, carrying.get(document)), action: 'create', dependsOn: [labelStepId(label.name)], after: { document, label: label.name } });
      }
      if (!label.prune) continue;
      for (const [document, documentName] of carrying) {
        if (wanted.has(document)) continue;
        const step: PlanStep = {
          ...linkStep(label.name, document, documentName),
          action: 'delete',
          before: { document, label: label.name },
          reason: label.documents.length === 0 && !desired.labels.some((d) => labelKey(d.name) === labelKey(label.name))
            ? 'the label is being deleted'
            : 'pruneDocuments: not listed in the label\'s documents',
        };
        steps.push(step);
        dependencies.push({ step: labelStepId(label.name), on: step.id });
      }
    }
    return { steps, warnings: [], dependencies };
  },

  current(step, live) {
    const { document, label } = step.ref as { document: string; label: string };
    return live.get(labelKey(label))?.has(document) ? { document, label } : undefined;
  },

  /** One PATCH per document, carrying every label added to it and removed from it. */
  async apply(steps, { api }) {
    const outcomes = new Map<string, StepOutcome>();
    const byDocument = new Map<string, PlanStep[]>();
    for (const step of steps) byDocument.set(step.ref.document!, [...(byDocument.get(step.ref.document!) ?? []), step]);
    for (const [document, documentSteps] of byDocument) {
      const add = documentSteps.filter((step) => step.action === 'create').map((step) => step.ref.label!);
      const remove = documentSteps.filter((step) => step.action === 'delete').map((step) => step.ref.label!);
      const outcome = await attempt(async () => {
        await api.patchDocumentLabels(document, { add, remove });
      });
      for (const step of documentSteps) outcomes.set(step.id, outcome);
    }
    return outcomes;
  },
};

function linkStep(label: string, document: string, documentName: string | undefined) {
  return {
    id: `documentLabels/${document}/${labelKey(label)}`,
    kind: 'documentLabels' as const,
    key: `${label} @ ${document}`,
    dependsOn: [] as string[],
    ref: { document, label, ...(documentName === undefined ? {} : { documentName }) },
  };
}
