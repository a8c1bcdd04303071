// Folders and the labels they carry: the folders list (include=labels, path with `*`/`**` at the
// end, labels= filter, organization scope by default, cursor pagination with pageSize at least 1)
// and the bulk label PATCH of one folder (add/remove, atomic, labels must exist, a label in both
// lists refused). A label on a folder counts in its usage_count, as the vendor documents.
import { labelKey, UUID_PATTERN } from '../../domain/rules.js';
import { actingUser } from '../auth.js';
import type { RequestContext, Route } from '../context.js';
import { badRequest, HttpProblem, json, notFound } from '../http.js';
import { paginate, type SortKey } from '../pagination.js';
import type { EmulatorState, StoredFolder, StoredLabel } from '../state.js';
import { enumQuery, rejectUnknownFields, requireObject, stringArray } from '../validate.js';
import { findLabel, LABEL_NOT_FOUND } from './labels.js';

const INCLUDE_VALUES = ['_count', 'labels', 'onlySharedWithMe'];

/** Names of the labels a folder carries, ordered by name. */
export function folderLabelNames(folder: StoredFolder, state: EmulatorState): string[] {
  return folder.labelIds
    .map((id) => state.labels.find((label) => label.id === id))
    .filter((label): label is StoredLabel => label !== undefined)
    .map((label) => label.name)
    .sort((a, b) => (labelKey(a) < labelKey(b) ? -1 : 1));
}

function toFolder(folder: StoredFolder, context: RequestContext, include: ReadonlySet<string>) {
  const owner = context.state.users.find((user) => user.id === folder.ownerId);
  return {
    id: folder.id,
    name: folder.name,
    path: folder.path,
    scope: folder.scope,
    owner: { id: folder.ownerId, name: owner?.displayName ?? '' },
    url: `${context.origin}/f/${folder.path.split('/').map(encodeURIComponent).join('/')}`,
    ...(include.has('labels') ? { labels: folderLabelNames(folder, context.state) } : {}),
    ...(include.has('_count') ? { _count: { documents: context.state.documents.filter((document) => document.folder?.id === folder.id).length, favorites: 0 } } : {}),
  };
}

/** `path` as the folders list takes it: exact, or ending in `/*` (children) or `/**` (descendants). */
function pathMatcher(raw: string | null): (folder: StoredFolder) => boolean {
  if (raw === null) return () => true;
  if (raw.endsWith('/**')) {
    const base = raw.slice(0, -3);
    return (folder) => folder.path.startsWith(`${base}/`);
  }
  if (raw.endsWith('/*')) {
    const base = raw.slice(0, -2);
    return (folder) => folder.path.startsWith(`${base}/`) && !folder.path.slice(base.length + 1).includes('/');
  }
  return (folder) => folder.path === raw;
}

function listFolders(context: RequestContext) {
  const { query, state } = context;
  actingUser(context, 'filter');
  const include = new Set((query.get('include') ?? '').split(',').map((value) => value.trim()).filter((value) => value !== ''));
  for (const value of include) {
    if (!INCLUDE_VALUES.includes(value)) throw badRequest('include', `Invalid value. Expected: ${INCLUDE_VALUES.join(', ')}`);
  }
  const scope = enumQuery(query, 'scope', ['organization', 'restricted'] as const, 'organization');
  const ownerId = query.get('ownerId');
  if (scope === 'restricted' && ownerId === null && context.caller.keyScope === 'organization') {
    throw badRequest('ownerId', "ownerId is required when scope is 'restricted'");
  }
  const sortDirection = enumQuery(query, 'sortDirection', ['asc', 'desc'] as const, 'asc');
  const path = query.get('path');
  const atPath = pathMatcher(path);
  const wanted = (query.get('labels') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  const wantedIds = wanted.map((name) => findLabel(state, name)?.id);
  const folders = state.folders.filter(
    (folder) =>
      folder.scope === scope &&
      (ownerId === null || folder.ownerId === ownerId) &&
      atPath(folder) &&
      (wantedIds.length === 0 || wantedIds.some((id) => id !== undefined && folder.labelIds.includes(id))),
  );
  if (path !== null && !path.endsWith('*') && folders.length === 0) throw notFound(`Folder with path ${path} does not exist`);
  const page = paginate(folders, query, {
    list: `folders:${scope}`,
    keyOf: (folder): SortKey => [folder.path.toLowerCase(), folder.id],
    directions: [sortDirection, sortDirection],
  });
  return json({ ...page, records: page.records.map((folder) => toFolder(folder, context, include)) });
}

function patchFolderLabels(context: RequestContext) {
  actingUser(context);
  const folderId = context.params.folderId!;
  if (!UUID_PATTERN.test(folderId)) throw badRequest('folderId', 'Invalid uuid');
  const body = requireObject(context.body);
  rejectUnknownFields(body, ['add', 'remove']);
  const add = body.add === undefined ? [] : stringArray(body.add, 'add');
  const remove = body.remove === undefined ? [] : stringArray(body.remove, 'remove');
  if (add.length === 0 && remove.length === 0) throw new HttpProblem(400, 'Bad Request: At least one label must be specified in add or remove');
  const addKeys = new Set(add.map(labelKey));
  if (remove.some((name) => addKeys.has(labelKey(name)))) throw new HttpProblem(400, 'Bad Request: Labels cannot appear in both add and remove arrays');
  const folder = context.state.folders.find((candidate) => candidate.id === folderId);
  if (!folder) throw notFound(`Folder with id ${folderId} not found`);
  const resolve = (name: string) => {
    const label = findLabel(context.state, name);
    if (!label) throw notFound(`${LABEL_NOT_FOUND}: ${name}`);
    return label.id;
  };
  const addIds = add.map(resolve);
  const removeIds = new Set(remove.map(resolve));
  for (const id of addIds) if (!folder.labelIds.includes(id)) folder.labelIds.push(id);
  folder.labelIds = folder.labelIds.filter((id) => !removeIds.has(id));
  return json({ labels: folderLabelNames(folder, context.state) });
}

export const folderRoutes: Route[] = [
  { method: 'GET', template: '/api/v1/folders', handler: listFolders },
  { method: 'PATCH', template: '/api/v1/folders/{folderId}/labels', handler: patchFolderLabels },
];
