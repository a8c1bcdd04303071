// Which documents carry which label. Read whichever way costs fewer requests: one query per
// managed label (`labels=NAME`, one label at a time, right whether the server's filter means
// "any" or "all"), Σ⌈usage_count / 100⌉ requests known from GET /labels; or one listing of every
// document with `include=labels`, ⌈documents / 100⌉ requests, the document count known only from
// the first page's `pageInfo.totalRecords`. When the queries cost two or more, page 1 of the
// listing is read; the listing goes on if its remaining pages are no more than the queries, else
// the queries are made (at most one request above the cheaper read). Written as one PATCH
// {add, remove} per document. A label about to be deleted is
// first taken off every document, because the server refuses to delete a label in use.
import { ApiError } from '../../api/errors.js';
import { unreachable } from '../../errors.js';
import type { Label } from '../../api/types.js';
import type { Kind, LabelConfig } from '../../config/types.js';
import { labelKey } from '../../domain/rules.js';
import { MAX_PAGE_SIZE } from '../../api/pagination.js';
import { inParallel } from '../../api/parallel.js';
import type { PlatformApi } from '../../api/platform.js';
import type { PlanStep, PlanWarning } from '../../model/plan.js';
import type { KindExport, ResourceKind } from '../../model/kind.js';
import { compareText } from '../shared.js';
import { desiredLabels, everyLabel, labelFates, labelNames, labelStepId, type DesiredLabels, type LabelFate } from './labels.js';
import { UNLISTED_DOCUMENT_REASON } from '../protection.js';
import { closest } from '../../config/suggest.js';

declare module '../../model/plan.js' {
  interface KindSteps {
    /** A label on a document: the document's identifier and the label's name; `ref.documentName` as the listing showed it. */
    documentLabels: { state: { document: string; label: string }; ref: { document: string; label: string; documentName?: string } };
  }
}

/**
 * Label key (of the label's name once the plan has run) → the documents carrying it; `missing`:
 * the documents a link to add names that the deployment does not have (gaps.md: identifiers may
 * differ between deployments), which the plan reports instead of linking, each with the listed
 * document it is likely a typo of (or whose name it gives), if any.
 */
export type LiveDocumentLabels = Map<string, Map<string, string | undefined>> & { missing?: ReadonlyMap<string, string | undefined> };

/** A document as the listing gives it: what a missing one is compared with. */
interface ListedDocument {
  identifier: string;
  name: string | undefined;
}

/** A label whose document links this plan manages, with the name it has live now (if any). */
interface ManagedLabel {
  /** Its position in the config's `labels`; none for a live label being deleted. */
  index: number | undefined;
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
          : [{ index: fate.desired.index, name: fate.desired.name, liveName: undefined, inUse: false, documents: fate.desired.documents, prune: fate.desired.pruneDocuments }];
      case 'keep':
      case 'rename':
        return fate.desired.documents === undefined
          ? []
          : [{ index: fate.desired.index, name: fate.desired.name, liveName: fate.live.name, inUse: fate.live.usage_count > 0, documents: fate.desired.documents, prune: fate.desired.pruneDocuments }];
      case 'delete':
        return [{ index: undefined, name: fate.live.name, liveName: fate.live.name, inUse: fate.live.usage_count > 0, documents: [], prune: true }];
      case 'ignore':
        return [];
      default:
        return unreachable(fate);
    }
  });
}

// Export: the documents of each label in use (none are asked for unused ones), written into the
// label's entry; a promotion reads only those of the labels whose documents its config manages.
const documentLabelsExport: KindExport<DesiredLabels, LiveDocumentLabels, Map<string, string[]>> = {
  async read(context) {
    const live = (context.live.labels ?? []) as Label[];
    const managed = context.declared === undefined ? undefined : new Set((context.declared.labels ?? []).flatMap((label) => (label.documents === undefined ? [] : [labelKey(label.name)])));
    const included = live.filter((label) => managed === undefined || managed.has(labelKey(label.name)));
    const carrying = await context.read(everyLabel(included));
    // By the label's live name: its entry in the labels section.
    return new Map(included.map((label) => [label.name, [...(carrying.get(labelKey(label.name))?.keys() ?? [])]]));
  },
  section: (documents, { section }) =>
    ((section ?? []) as LabelConfig[]).map((label) => (documents.has(label.name) ? { ...label, documents: [...documents.get(label.name)!].sort(compareText) } : label)),
  holds: () => 'documents',
  // Identifiers quoted: one of digits alone would read back as a number.
  styles: { quoted: ['documents'], inline: ['documents'] },
  pruning: () => '`pruneDocuments: true`',
};

export const documentLabels: ResourceKind<DesiredLabels, LiveDocumentLabels, 'documentLabels'> = {
  kind: 'documentLabels',
  presentation: {
    noun: ['document label', 'document labels'],
    title(step) {
      const document = `document ${step.ref.document}${step.ref.documentName ? ` "${step.ref.documentName}"` : ''}`;
      return step.action === 'delete' ? `label "${step.ref.label}" off ${document}` : `label "${step.ref.label}" on ${document}`;
    },
    details: false,
  },
  order: { level: 2 },
  // A document's labels belong to their label: targeted by the label's name, with it.
  targeting: { noun: 'label', names: labelNames, pruned: (config) => config.prune?.labels === true, partOf: 'labels', stepName: (step) => step.ref.label ?? step.key },
  export: documentLabelsExport,
  readAfter: ['labels'] satisfies Kind[],

  declared: (config) =>
    (config.labels ?? []).some((label) => label.documents !== undefined) || config.prune?.labels === true,

  emails: () => [],

  desired: desiredLabels,

  async read({ api, live }, desired) {
    const liveLabels = (live.labels ?? []) as Label[];
    const result: LiveDocumentLabels = new Map();
    const managed = managedLabels(desired, liveLabels);
    for (const label of managed) result.set(labelKey(label.name), new Map());
    const queried = managed.filter((label) => label.liveName !== undefined && label.inUse);
    const usage = new Map(liveLabels.map((label) => [labelKey(label.name), label.usage_count]));
    const queryCost = queried.reduce((sum, label) => sum + Math.max(1, Math.ceil((usage.get(labelKey(label.liveName!)) ?? 0) / MAX_PAGE_SIZE)), 0);
    const listed = queryCost >= 2 ? await readByListing(api, queried, queryCost, result) : undefined;
    if (listed !== undefined) return Object.assign(result, { missing: nearest(unknownDocuments(managed, listed), listed) });
    await inParallel(queried, async (label) => {
      const documents = result.get(labelKey(label.name))!;
      for await (const document of api.listDocuments({ labels: [label.liveName!] })) {
        documents.set(document.identifier, document.name ?? undefined);
      }
    });
    return Object.assign(result, { missing: await missingDocuments(api, managed, result) });
  },

  diff(desired, live, allLive) {
    const steps: PlanStep<'documentLabels'>[] = [];
    const warnings: PlanWarning[] = [];
    const dependencies: { step: string; on: string }[] = [];
    for (const label of managedLabels(desired, (allLive.labels ?? []) as Label[])) {
      const carrying = live.get(labelKey(label.name)) ?? new Map<string, string | undefined>();
      const wanted = new Set(label.documents);
      label.documents.forEach((document, position) => {
        if (carrying.has(document)) return;
        if (live.missing?.has(document) === true) {
          const near = live.missing.get(document);
          warnings.push({
            code: 'documentLabels.missing-document',
            namesMissing: true,
            message: `document ${document} does not exist in this deployment, so label "${label.name}" is not applied to it (${near === undefined ? '' : `did you mean ${near}? `}document identifiers may differ between deployments)`,
            ...(label.index === undefined ? {} : { configPath: ['labels', label.index, 'documents', position] }),
          });
          return;
        }
        steps.push({ ...linkStep(label.name, document, carrying.get(document)), action: 'create', dependsOn: [labelStepId(label.name)], after: { document, label: label.name } });
      });
      if (!label.prune) continue;
      for (const [document, documentName] of carrying) {
        if (wanted.has(document)) continue;
        const step: PlanStep<'documentLabels'> = {
          ...linkStep(label.name, document, documentName),
          action: 'delete',
          before: { document, label: label.name },
          reason: label.documents.length === 0 && !desired.labels.some((d) => labelKey(d.name) === labelKey(label.name))
            ? 'the label is being deleted'
            : UNLISTED_DOCUMENT_REASON,
        };
        steps.push(step);
        dependencies.push({ step: labelStepId(label.name), on: step.id });
      }
    }
    return { steps, warnings, dependencies };
  },

  current(step, live) {
    const { document, label } = step.ref;
    return live.get(labelKey(label))?.has(document) ? { document, label } : undefined;
  },

  /** One PATCH per document, carrying every label added to it and removed from it. */
  async apply(steps, { api, attempt }) {
    for (const [document, documentSteps] of byDocument(steps)) {
      const add = documentSteps.filter((step) => step.action === 'create').map((step) => step.ref.label);
      const remove = documentSteps.filter((step) => step.action === 'delete').map((step) => step.ref.label);
      await attempt(documentSteps, () => api.patchDocumentLabels(document, { add, remove }).catch((error: unknown) => {
        throw refusedIdentifier(error, document);
      }));
    }
  },

  writeRequests: (steps) => byDocument(steps).size,
};

/**
 * A 400 that names the document id: the documents page declares this path parameter a uuid, but
 * the documents list gives only `identifier`, which steward sends (gaps.md keeps it OPEN). Said as
 * such, so the failure is not read as a bad label.
 */
function refusedIdentifier(error: unknown, document: string): unknown {
  if (!(error instanceof ApiError) || error.status !== 400 || !/documentId/i.test(error.serverMessage ?? '')) return error;
  return new ApiError({
    code: error.code,
    summary: `${error.summary}; steward sends the document's identifier (${document}), the only id the documents list gives, and this server wants another id in its place`,
    fault: 'server',
    status: error.status,
    serverMessage: error.serverMessage,
    method: error.method,
    route: error.route,
    operation: error.operation,
    hint: 'label this document in the app, or ask the platform which document id this endpoint takes',
    cause: error,
  });
}

function byDocument(steps: readonly PlanStep<'documentLabels'>[]): Map<string, PlanStep<'documentLabels'>[]> {
  const grouped = new Map<string, PlanStep<'documentLabels'>[]>();
  for (const step of steps) grouped.set(step.ref.document, [...(grouped.get(step.ref.document) ?? []), step]);
  return grouped;
}

/**
 * Reads the labels of every document through one listing with `include=labels`, if its pages
 * beyond the first are no more than `queryCost`; returns every document identifier listed, or
 * undefined (having read one page) when the per-label queries are cheaper.
 */
async function readByListing(
  api: PlatformApi,
  queried: readonly ManagedLabel[],
  queryCost: number,
  result: LiveDocumentLabels,
): Promise<ListedDocument[] | undefined> {
  let cheaper = true;
  const onPage = (page: number, totalPages: number | undefined) => {
    // Without an announced total the listing's length is unknown: the queries' cost is known.
    if (page === 1 && (totalPages === undefined || totalPages - 1 > queryCost)) cheaper = false;
  };
  const byLiveName = new Map(queried.map((label) => [labelKey(label.liveName!), result.get(labelKey(label.name))!]));
  const listed: ListedDocument[] = [];
  for await (const document of api.listDocuments({ include: ['labels'], onPage })) {
    if (!cheaper) {
      for (const documents of byLiveName.values()) documents.clear();
      return undefined;
    }
    listed.push({ identifier: document.identifier, name: document.name ?? undefined });
    for (const name of document.labels ?? []) byLiveName.get(labelKey(name))?.set(document.identifier, document.name ?? undefined);
  }
  return listed;
}

/** The documents links to add name that a full listing did not show. */
function unknownDocuments(managed: readonly ManagedLabel[], listed: readonly ListedDocument[]): Set<string> {
  const identifiers = new Set(listed.map((document) => document.identifier));
  return new Set(managed.flatMap((label) => label.documents).filter((document) => !identifiers.has(document)));
}

/**
 * Each missing document with the listed one it likely means: the document of that name (a name
 * written where the identifier goes), else an identifier a typo away.
 */
function nearest(missing: ReadonlySet<string>, listed: readonly ListedDocument[]): Map<string, string | undefined> {
  const identifiers = listed.map((document) => document.identifier);
  return new Map(
    [...missing].map((document) => [
      document,
      listed.find((candidate) => candidate.name !== undefined && candidate.name.toLowerCase() === document.toLowerCase())?.identifier ?? closest(document, identifiers),
    ]),
  );
}

/**
 * The documents that links to add name and the deployment does not have. Documents already read
 * under some label exist; the rest are looked for in one listing of the documents (pageSize 100,
 * stopping once all are found), made only when there are such links: there is no request by
 * identifier, and a per-label query cannot show that a document without the label exists.
 */
async function missingDocuments(api: PlatformApi, managed: readonly ManagedLabel[], carrying: LiveDocumentLabels): Promise<Map<string, string | undefined>> {
  const seen = new Set([...carrying.values()].flatMap((documents) => [...documents.keys()]));
  const unknown = new Set(managed.flatMap((label) => label.documents).filter((document) => !seen.has(document)));
  if (unknown.size === 0) return new Map();
  // The listing is read to its end when a document is missing: the whole of it is the candidates.
  const listed: ListedDocument[] = [];
  for await (const document of api.listDocuments()) {
    unknown.delete(document.identifier);
    if (unknown.size === 0) break;
    listed.push({ identifier: document.identifier, name: document.name ?? undefined });
  }
  return nearest(unknown, listed);
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
