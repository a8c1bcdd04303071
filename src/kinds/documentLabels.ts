// Which documents carry which label. Read through the documents list filtered by one label at a
// time (right whether the server's filter means "any" or "all"), never by listing every
// document; written as one PATCH {add, remove} per document. A label about to be deleted is
// first taken off every document, because the server refuses to delete a label in use.
import type { Label } from '../api/types.js';
import type { Kind } from '../config/types.js';
import { labelKey } from '../domain/rules.js';
import type { PlatformApi } from '../api/platform.js';
import type { PlanStep, PlanWarning } from '../plan/types.js';
import type { ResourceKind } from './kind.js';
import { desiredLabels, labelFates, labelStepId, type DesiredLabels, type LabelFate } from './labels.js';

/**
 * Label key (of the label's name once the plan has run) → the documents carrying it; `missing`:
 * the documents a link to add names that the deployment does not have (gaps.md: identifiers may
 * differ between deployments), which the plan reports instead of linking.
 */
export type LiveDocumentLabels = Map<string, Map<string, string>> & { missing?: ReadonlySet<string> };

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
    const managed = managedLabels(desired, liveLabels);
    await Promise.all(
      managed.map(async (label) => {
        const documents = new Map<string, string>();
        result.set(labelKey(label.name), documents);
        if (label.liveName === undefined || !label.inUse) return;
        for await (const document of api.listDocuments({ labels: [label.liveName] })) {
          documents.set(document.identifier, document.name);
        }
      }),
    );
    return Object.assign(result, { missing: await missingDocuments(api, managed, result) });
  },

  diff(desired, live, allLive) {
    const steps: PlanStep[] = [];
    const warnings: PlanWarning[] = [];
    const dependencies: { step: string; on: string }[] = [];
    for (const label of managedLabels(desired, (allLive.labels ?? []) as Label[])) {
      const carrying = live.get(labelKey(label.name)) ?? new Map<string, string>();
      const wanted = new Set(label.documents);
      for (const document of label.documents) {
        if (carrying.has(document)) continue;
        if (live.missing?.has(document) === true) {
          warnings.push({
            code: 'documentLabels.missing-document',
            message: `document ${document} does not exist in this deployment, so label "${label.name}" is not applied to it (document identifiers may differ between deployments)`,
          });
          continue;
        }
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
    return { steps, warnings, dependencies };
  },

  current(step, live) {
    const { document, label } = step.ref as { document: string; label: string };
    return live.get(labelKey(label))?.has(document) ? { document, label } : undefined;
  },

  /** One PATCH per document, carrying every label added to it and removed from it. */
  async apply(steps, { api, attempt }) {
    for (const [document, documentSteps] of byDocument(steps)) {
      const add = documentSteps.filter((step) => step.action === 'create').map((step) => step.ref.label!);
      const remove = documentSteps.filter((step) => step.action === 'delete').map((step) => step.ref.label!);
      await attempt(documentSteps, () => api.patchDocumentLabels(document, { add, remove }));
    }
  },

  writeRequests: (steps) => byDocument(steps).size,
};

function byDocument(steps: readonly PlanStep[]): Map<string, PlanStep[]> {
  const grouped = new Map<string, PlanStep[]>();
  for (const step of steps) grouped.set(step.ref.document!, [...(grouped.get(step.ref.document!) ?? []), step]);
  return grouped;
}

/**
 * The documents that links to add name and the deployment does not have. Documents already read
 * under some label exist; the rest are looked for in one listing of the documents (pageSize 100,
 * stopping once all are found), made only when there are such links: there is no request by
 * identifier, and a per-label query cannot show that a document without the label exists.
 */
async function missingDocuments(api: PlatformApi, managed: readonly ManagedLabel[], carrying: LiveDocumentLabels): Promise<Set<string>> {
  const seen = new Set([...carrying.values()].flatMap((documents) => [...documents.keys()]));
  const unknown = new Set(managed.flatMap((label) => label.documents).filter((document) => !seen.has(document)));
  if (unknown.size === 0) return unknown;
  for await (const document of api.listDocuments()) {
    unknown.delete(document.identifier);
    if (unknown.size === 0) break;
  }
  return unknown;
}

function linkStep(label: string, document: string, documentName: string | undefined) {
  return {
    id: `documentLabels/${document}/${labelKey(label)}`,
    kind: 'documentLabels' as const,
    key: `${label} @ ${document}`,
    dependsOn: [] as string[],
    ref: { document, label, ...(documentName === undefined ? {} : { documentName }) },
  };
}
