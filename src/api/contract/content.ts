// Labels, and the documents and folders that carry them.
import type { Static } from '../../typedSchema.js';
import { arrayOf, boolean, commaList, cursorList, fullObject, integer, nullable, number, object, oneOf, pageInfo, string, uuid } from './schema.js';
import type { Operation } from './types.js';

const labelName = string({ minLength: 2, maxLength: 25 });
const byUser = { userId: string() };

// LB requires nothing and declares color and description not nullable but null by default; CLI
// requires all six and declares both nullable: the emulator answers all six, nullable as CLI has
// it (steward sends null to clear a colour or description, which LB's default of null reads as).
const label = object({
  name: string(),
  verified: boolean,
  homepage: boolean,
  usage_count: integer({ minimum: 0 }),
  color: nullable(string({ maxLength: 9 })),
  description: nullable(string({ maxLength: 500 })),
});

const labelFields = {
  name: labelName,
  color: nullable(string({ maxLength: 9 })),
  description: nullable(string({ maxLength: 500 })),
  verified: boolean,
  homepage: boolean,
};
/** Body of `POST /api/v1/labels`. */
const labelCreate = object(labelFields, ['name'], { open: true });
/** Body of `PUT /api/v1/labels/{name}`: any subset; a new `name` renames. */
const labelUpdate = object(labelFields, [], { open: true });
export type LabelCreate = Static<typeof labelCreate>;
export type LabelUpdate = Static<typeof labelUpdate>;

/** The folder a document is in. */
const documentFolder = fullObject({ id: string(), name: string(), path: string(), scope: oneOf('restricted', 'organization') });
export type DocumentFolder = Static<typeof documentFolder>;

const document = object(
  {
    connectionId: string(),
    deleted: boolean,
    folder: nullable(documentFolder),
    hasDashboard: boolean,
    identifier: string(),
    name: string(),
    owner: fullObject({ id: string(), name: string() }),
    scope: oneOf('restricted', 'organization'),
    type: oneOf('document'),
    updatedAt: nullable(string()),
    url: string(),
    labels: arrayOf(string()),
    description: nullable(string()),
    _count: fullObject({ favorites: number(), views: number() }),
  },
  ['connectionId', 'deleted', 'folder', 'hasDashboard', 'identifier', 'name', 'owner', 'scope', 'type', 'updatedAt', 'url'],
);

const folder = object({
  id: uuid,
  name: string(),
  path: string(),
  scope: oneOf('restricted', 'organization'),
  owner: object({ id: string(), name: string() }),
  labels: arrayOf(string()),
  _count: fullObject({ documents: number(), favorites: number() }),
  url: string(),
});

/** `{add, remove}` label lists, nothing required (the server wants at least one name); other keys unstated. */
const labelChanges = object({ add: arrayOf(labelName), remove: arrayOf(labelName) }, [], { open: true });
/** Body of a document's or folder's labels PATCH: label names to add and to remove, atomically. */
export type LabelChanges = Static<typeof labelChanges>;
const labelsAfter = object({ labels: arrayOf(string()) });

export const contentOperations: readonly Operation[] = [
  { id: 'labels.list', method: 'GET', path: '/api/v1/labels', sources: ['LB', 'CLI'], success: { status: 200, body: object({ labels: arrayOf(label) }) } },
  {
    id: 'labels.create',
    method: 'POST',
    path: '/api/v1/labels',
    sources: ['LB', 'CLI', 'DOCS'],
    query: byUser,
    body: labelCreate,
    success: { status: 201, body: label },
  },
  { id: 'labels.get', method: 'GET', path: '/api/v1/labels/{labelName}', sources: ['LB', 'CLI'], params: { labelName: string() }, success: { status: 200, body: label } },
  {
    id: 'labels.update',
    method: 'PUT',
    path: '/api/v1/labels/{labelName}',
    sources: ['LB', 'CLI', 'DOCS'],
    params: { labelName: string() },
    query: byUser,
    body: labelUpdate,
    success: { status: 200, body: label },
  },
  {
    id: 'labels.delete',
    method: 'DELETE',
    path: '/api/v1/labels/{labelName}',
    sources: ['LB', 'CLI'],
    params: { labelName: string() },
    query: byUser,
    success: { status: 204, body: null },
  },
  {
    id: 'documents.list',
    method: 'GET',
    path: '/api/v1/documents',
    sources: ['DO', 'DOCS', 'CLI'],
    query: {
      include: commaList(['_count', 'labels', 'includeDeleted', 'onlyFavorites', 'onlySharedWithMe']),
      labels: string(),
      folderId: uuid,
      pageSize: integer({ minimum: 1, maximum: 100 }),
      sortField: oneOf('favorites', 'name', 'updatedAt', 'visits'),
      sortDirection: oneOf('asc', 'desc'),
      cursor: string(),
      userId: uuid,
      creatorId: uuid,
    },
    success: { status: 200, body: cursorList(document) },
  },
  {
    id: 'documents.labels.update',
    method: 'PATCH',
    path: '/api/v1/documents/{documentId}/labels',
    sources: ['DL', 'DOCS'],
    params: { documentId: uuid },
    query: byUser,
    body: labelChanges,
    success: { status: 200, body: labelsAfter },
  },
  {
    id: 'documents.labels.update~cli-openapi',
    method: 'PATCH',
    path: '/api/v1/documents/{documentId}/labels',
    sources: ['CLI'],
    params: { documentId: string({ minLength: 1 }) },
    query: byUser,
    body: labelChanges,
    success: { status: 200, body: labelsAfter },
    // gaps.md (OPEN): the documents list gives only `identifier`, so steward sends it here.
    variant: { kind: 'cli-openapi', note: 'CLI takes "either document ID or identifier slug" where DL and the docs page declare a uuid; the documents list gives only the identifier' },
  },
  {
    id: 'documents.labels.apply',
    method: 'PUT',
    path: '/api/v1/documents/{documentId}/labels/{labelName}',
    sources: ['DL', 'DOCS', 'CLI'],
    params: { documentId: string({ minLength: 1 }), labelName },
    query: byUser,
    success: { status: 204, body: null },
  },
  {
    id: 'documents.labels.remove',
    method: 'DELETE',
    path: '/api/v1/documents/{documentId}/labels/{labelName}',
    sources: ['DL', 'DOCS', 'CLI'],
    params: { documentId: string({ minLength: 1 }), labelName },
    query: byUser,
    success: { status: 204, body: null },
  },
  {
    id: 'folders.list',
    method: 'GET',
    path: '/api/v1/folders',
    sources: ['FO', 'DOCS'],
    query: {
      include: commaList(['_count', 'labels', 'onlySharedWithMe']),
      path: string(),
      labels: string(),
      scope: oneOf('organization', 'restricted'),
      sortField: oneOf('favorites', 'name', 'path'),
      sortDirection: oneOf('asc', 'desc'),
      cursor: string(),
      pageSize: integer({ minimum: 1 }),
      ownerId: uuid,
      userId: uuid,
    },
    // FO requires neither key of the list.
    success: { status: 200, body: object({ records: arrayOf(folder), pageInfo }) },
  },
  {
    id: 'folders.labels.update',
    method: 'PATCH',
    path: '/api/v1/folders/{folderId}/labels',
    sources: ['DOCS:folder-labels'],
    params: { folderId: uuid },
    query: byUser,
    body: labelChanges,
    success: { status: 200, body: labelsAfter },
  },
];
