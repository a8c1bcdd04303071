// Documents and the labels they carry: the document list (include=labels, labels= filter,
// cursor pagination) and the three label writes (PUT and DELETE of one label, PATCH with
// add/remove lists). Whether `labels=a,b` keeps documents carrying ALL or ANY of the labels is
// OPEN (gaps.md); the `documentLabelsFilter` knob picks.
import type { DocumentLabelsPatchResult, DocumentRecord } from '../../api/types.js';
import { labelKey, UUID_PATTERN } from '../../domain/rules.js';
import { actingUser } from '../auth.js';
import type { RequestContext, Route } from '../context.js';
import { badRequest, HttpProblem, json, noContent, notFound } from '../http.js';
import { ordered, paginate, type SortKey } from '../pagination.js';
import type { EmulatorState, StoredDocument, StoredLabel } from '../state.js';
import { enumQuery, rejectUnknownFields, requireObject, stringArray } from '../validate.js';
import { existingLabel, findLabel, LABEL_NOT_FOUND } from './labels.js';

const INCLUDE_VALUES = ['_count', 'labels', 'includeDeleted', 'onlyFavorites', 'onlySharedWithMe'];
const UNSUPPORTED_INCLUDES = ['onlyFavorites', 'onlySharedWithMe'];
export const DOCUMENT_NOT_FOUND = 'Document not found';

/** Names of the labels a document carries, ordered by name. */
export function documentLabelNames(document: StoredDocument, state: EmulatorState): string[] {
  return document.labelIds
    .map((id) => state.labels.find((label) => label.id === id))
    .filter((label): label is StoredLabel => label !== undefined)
    .map((label) => label.name)
    .sort((a, b) => (labelKey(a) < labelKey(b) ? -1 : 1));
}

/** The wire form of a document; `labels` only when asked for. */
export function toDocumentRecord(
  document: StoredDocument,
  state: EmulatorState,
  origin: string,
  include: { labels: boolean; counts: boolean },
): DocumentRecord & { _count?: { favorites: number; views: number } } {
  const owner = state.users.find((user) => user.id === document.ownerId);
  return {
    identifier: document.identifier,
    name: document.name,
    connectionId: document.connectionId,
    deleted: document.deleted,
    description: document.description,
    folder: document.folder ? { ...document.folder } : null,
    hasDashboard: document.hasDashboard,
    owner: { id: document.ownerId, name: owner?.displayName ?? '' },
    scope: document.scope,
    type: 'document',
    updatedAt: document.updatedAt,
    url: `${origin}/${document.hasDashboard ? 'dashboards' : 'w'}/${encodeURIComponent(document.identifier)}`,
    ...(include.labels ? { labels: documentLabelNames(document, state) } : {}),
    ...(include.counts ? { _count: { favorites: 0, views: 0 } } : {}),
  };
}

function parseInclude(query: URLSearchParams): Set<string> {
  const raw = query.get('include');
  const values = new Set((raw ?? '').split(',').map((value) => value.trim()).filter((value) => value !== ''));
  for (const value of values) {
    if (!INCLUDE_VALUES.includes(value)) throw badRequest('include', `unknown value \`${value}\` (allowed: ${INCLUDE_VALUES.join(', ')})`);
    if (UNSUPPORTED_INCLUDES.includes(value)) throw badRequest('include', `\`${value}\` is not supported by the emulator`);
  }
  return values;
}

function listDocuments(context: RequestContext) {
  const { state, query } = context;
  actingUser(context, 'filter');
  const include = parseInclude(query);
  const sortField = enumQuery(query, 'sortField', ['name', 'favorites', 'updatedAt', 'visits'] as const, 'name');
  const sortDirection = enumQuery(query, 'sortDirection', ['asc', 'desc'] as const, 'asc');
  const wanted = (query.get('labels') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const wantedIds = wanted.map((name) => findLabel(state, name)?.id);
  const carries = (document: StoredDocument, id: string | undefined) => id !== undefined && document.labelIds.includes(id);
  const matchesLabels = (document: StoredDocument) =>
    wantedIds.length === 0 ||
    (context.knobs.documentLabelsFilter === 'all'
      ? wantedIds.every((id) => carries(document, id))
      : wantedIds.some((id) => carries(document, id)));
  const folderId = query.get('folderId');
  const creatorId = query.get('creatorId');
  const documents = () =>
    state.documents.filter(
      (document) =>
        (include.has('includeDeleted') || !document.deleted) &&
        matchesLabels(document) &&
        (folderId === null || document.folder?.id === folderId) &&
        (creatorId === null || document.ownerId === creatorId),
    );
  const keyOf = (document: StoredDocument): SortKey => {
    switch (sortField) {
      case 'name':
        return [document.name.toLowerCase(), document.identifier];
      case 'updatedAt':
        return [document.updatedAt ?? '', document.identifier];
      case 'favorites':
      case 'visits':
        // The emulator keeps no favourites or visits: every document has zero.
        return [0, document.identifier];
    }
  };
  const spec = { list: `documents:${sortField}`, keyOf, directions: [sortDirection, sortDirection] };
  // One listing's order is kept until the documents change: its pages share it.
  const selection = JSON.stringify([sortField, sortDirection, include.has('includeDeleted'), wantedIds, context.knobs.documentLabelsFilter, folderId, creatorId]);
  const page = paginate(context.memo(`documents ${selection}`, () => ordered(documents(), spec)), query, spec);
  const shape = { labels: include.has('labels'), counts: include.has('_count') };
  return json({
    records: page.records.map((document) => toDocumentRecord(document, state, context.origin, shape)),
    pageInfo: page.pageInfo,
  });
}

function existingDocument(context: RequestContext): StoredDocument {
  const identifier = context.params.identifier!;
  const document = context.state.documents.find((candidate) => candidate.identifier === identifier && !candidate.deleted);
  if (!document) throw notFound(DOCUMENT_NOT_FOUND);
  return document;
}

function putDocumentLabel(context: RequestContext) {
  actingUser(context);
  const document = existingDocument(context);
  const label = existingLabel(context.state, context.params.labelName!);
  if (!document.labelIds.includes(label.id)) document.labelIds.push(label.id);
  return noContent();
}

function deleteDocumentLabel(context: RequestContext) {
  actingUser(context);
  const document = existingDocument(context);
  const label = existingLabel(context.state, context.params.labelName!);
  // Not idempotent, as documented: a label the document does not carry is a 404.
  if (!document.labelIds.includes(label.id)) throw notFound(`Label "${context.params.labelName!}" not found on this document`);
  document.labelIds = document.labelIds.filter((id) => id !== label.id);
  return noContent();
}

function patchDocumentLabels(context: RequestContext) {
  actingUser(context);
  // The documents page declares this path parameter a uuid, where the list gives only identifiers (OPEN).
  if (context.knobs.documentLabelsPathId === 'uuid' && !UUID_PATTERN.test(context.params.identifier!)) throw badRequest('documentId', 'Invalid uuid');
  const body = requireObject(context.body);
  rejectUnknownFields(body, ['add', 'remove']);
  const add = body.add === undefined ? [] : stringArray(body.add, 'add');
  const remove = body.remove === undefined ? [] : stringArray(body.remove, 'remove');
  if (add.length === 0 && remove.length === 0) throw new HttpProblem(400, 'Bad Request: At least one label must be specified in add or remove');
  const addKeys = new Set(add.map(labelKey));
  if (remove.some((name) => addKeys.has(labelKey(name)))) throw new HttpProblem(400, 'Bad Request: Labels cannot appear in both add and remove arrays');
  const document = existingDocument(context);
  const resolve = (name: string) => {
    const label = findLabel(context.state, name);
    if (!label) throw notFound(`${LABEL_NOT_FOUND}: ${name}`);
    return label.id;
  };
  const addIds = add.map(resolve);
  const removeIds = new Set(remove.map(resolve));
  // A label to remove that the document does not carry fails the whole request, as documented.
  const notOn = remove.filter((name) => !document.labelIds.includes(resolve(name)));
  if (notOn.length > 0) throw notFound(`Labels not found on this document: ${notOn.map((name) => `"${name}"`).join(', ')}`);
  for (const id of addIds) if (!document.labelIds.includes(id)) document.labelIds.push(id);
  document.labelIds = document.labelIds.filter((id) => !removeIds.has(id));
  const result: DocumentLabelsPatchResult = { labels: documentLabelNames(document, context.state) };
  return json(result);
}

export const documentRoutes: Route[] = [
  { method: 'GET', template: '/api/v1/documents', handler: listDocuments },
  { method: 'PATCH', template: '/api/v1/documents/{identifier}/labels', handler: patchDocumentLabels },
  { method: 'PUT', template: '/api/v1/documents/{identifier}/labels/{labelName}', handler: putDocumentLabel },
  { method: 'DELETE', template: '/api/v1/documents/{identifier}/labels/{labelName}', handler: deleteDocumentLabel },
];
