// Typed functions for every platform endpoint steward uses: each names its operation of the
// vendor contract (src/api/contract/, where method, path and query keys are written once), its
// human operation and response shape, so callers never assemble URLs themselves, never send a
// query key the vendor does not document, and never see a body that was not checked against its
// shape (shapes.ts).

import type { ApiClient } from './client.js';
import { operation as contractOperation, undocumentedBodyKeys, type OperationId } from './contract/index.js';
import { MAX_PAGE_SIZE, paginateCursor, paginateScim, type CursorPage } from './pagination.js';
import type {
  ApiKeyRecord,
  ApiKeyType,
  CreditControls,
  CreditControlsPatch,
  DocumentLabelsPatch,
  DocumentLabelsPatchResult,
  DocumentRecord,
  EntityGroupCreditLimitPatch,
  EntityGroupCreditLimitPatchResult,
  EntityGroupCreditLimitRecord,
  FolderLabelsPatch,
  FolderLabelsPatchResult,
  FolderRecord,
  Label,
  LabelCreate,
  LabelUpdate,
  ModelRecord,
  ModelTopic,
  PageInfo,
  Routine,
  RoutineCreate,
  RoutinePatch,
  RoutinePut,
  ScimGroup,
  ScimList,
  ScimUser,
  UserCreditLimitPatch,
  UserCreditLimitPatchResult,
  UserCreditLimitRecord,
  UserGroupCreditLimitPatch,
  UserGroupCreditLimitPatchResult,
  UserGroupCreditLimitRecord,
  Whoami,
} from './types.js';
import { checkShape, type CursorListShape, type ShapeName, type ShapeType } from './shapes.js';
import { fillPath, type QueryValue } from './url.js';
import { StewardError } from '../errors.js';
import { CREDIT_LIMIT_BATCH_MAX, CREDIT_USAGE_BATCH_MAX, labelKey } from '../domain/rules.js';

/** What a call may carry besides its operation: path parameters, query, body, the page it reads. */
interface CallExtra {
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  page?: number;
}

/** Told after each page of a listing: its 1-based number and the pages the server announces. */
export type PageListener = (page: number, totalPages: number | undefined) => void;

/** Options of routine calls: the target user (organization keys) and a name for messages. */
export interface RoutineCallOptions {
  /** Membership id of the user to act for; needs an organization API key. */
  userId?: string;
  /** The routine's name, used in operation messages when known. */
  name?: string;
}

function quoted(text: string): string {
  return JSON.stringify(text);
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The platform's endpoints, typed; every call goes through the given client. */
export class PlatformApi {
  constructor(private readonly client: ApiClient) {}

  /**
   * Sends one request of the vendor contract (src/api/contract/): its method and path come from
   * the operation, and a query key the operation does not document is refused before anything is
   * sent (a programming error, never a surprise on a real server). Returns the body checked
   * against `shape`, typed as that shape (nothing without a shape: a write whose answer steward
   * does not read). A body that does not fit is an ApiError `api.invalid-response` naming method,
   * route and the misfit; `page` is named past the first.
   */
  private call<N extends ShapeName>(id: OperationId, operation: string, extra: CallExtra & { shape: N }): Promise<ShapeType<N>>;
  private call(id: OperationId, operation: string, extra?: CallExtra): Promise<void>;
  private async call(id: OperationId, operation: string, extra: CallExtra & { shape?: ShapeName } = {}): Promise<unknown> {
    const documented = contractOperation(id);
    const { method, path: template } = documented;
    const route = `${method} ${template}`;
    const undocumented = [
      ...Object.entries(extra.query ?? {}).flatMap(([key, value]) => (value !== undefined && !(key in (documented.query ?? {})) ? [`the query key ${key}`] : [])),
      ...undocumentedBodyKeys(documented, extra.body).map((key) => `the body key ${key}`),
    ];
    if (undocumented.length > 0) {
      throw new StewardError('internal.undocumented-request', `${operation}: ${route} would send ${undocumented.join(' and ')}, which the vendor does not document`, 'tool');
    }
    // Async, so a path that cannot be built rejects like every other failure.
    const body = await this.client.request<unknown>(method, fillPath(template, extra.params), {
      operation,
      route,
      subjects: subjectsOf(extra.params, extra.query),
      ...(extra.query === undefined ? {} : { query: extra.query }),
      ...(extra.body === undefined ? {} : { body: extra.body }),
      readBody: extra.shape !== undefined,
      ...(documented.readOnly === true ? { readOnly: true } : {}),
    });
    if (extra.shape === undefined) return undefined;
    const checked = checkShape(extra.shape, body, extra.page === undefined ? {} : { page: extra.page });
    if (!checked.ok) throw this.client.invalidResponse({ method, route, operation }, checked.misfit);
    return checked.value;
  }

  /** Every record of a cursor-paginated listing of shape `shape`, page after page. */
  private list<N extends CursorListShape>(
    shape: N,
    id: OperationId,
    operation: string,
    keyOf: (record: ShapeType<N>['records'][number]) => string,
    query: Record<string, QueryValue> = {},
    listener?: PageListener,
  ): AsyncIterable<ShapeType<N>['records'][number]> {
    type Item = ShapeType<N>['records'][number];
    const route = `GET ${contractOperation(id).path}`;
    const onPage = (page: number, totalPages: number | undefined) => {
      this.client.notePage(operation, page, totalPages);
      listener?.(page, totalPages);
    };
    return paginateCursor<Item>({ operation, route, keyOf, onPage }, async (cursor, page): Promise<CursorPage<Item>> => {
      const list: { records: Item[]; pageInfo: PageInfo } = await this.call(id, operation, {
        query: { ...query, pageSize: MAX_PAGE_SIZE, cursor },
        shape,
        page,
      });
      return { items: list.records, pageInfo: list.pageInfo };
    });
  }

  /** Every resource of a SCIM listing of shape `shape`, page after page. */
  private scim<N extends 'scimUserList' | 'scimGroupList'>(shape: N, id: OperationId, operation: string, filter: string | undefined): AsyncIterable<ShapeType<N>['Resources'][number]> {
    type Item = ShapeType<N>['Resources'][number];
    const route = `GET ${contractOperation(id).path}`;
    const onPage = (page: number, totalPages: number | undefined) => this.client.notePage(operation, page, totalPages);
    return paginateScim<Item>({ operation, route, keyOf: (resource) => resource.id, onPage }, (startIndex, count, page) =>
      this.call(id, operation, { query: { filter, startIndex, count }, shape, page }),
    );
  }

  // ---- whoami ---------------------------------------------------------------------------

  /** The caller's identity, key scope, org role and per-model roles (only `modelIds` when given). */
  whoami(modelIds?: string[]): Promise<Whoami> {
    const modelId = modelIds === undefined || modelIds.length === 0 ? undefined : modelIds.join(',');
    return this.call('whoami.get', 'reading the API key identity', { query: { modelId }, shape: 'whoami' });
  }

  // ---- AI credit controls ---------------------------------------------------------------

  /** The organization's credit controls with period context. */
  getCreditControls(): Promise<CreditControls> {
    return this.call('creditControls.get', 'reading AI credit controls', { shape: 'creditControls' });
  }

  /**
   * Changes the given settings (absent = unchanged, null = off); returns the full new state. The
   * entity-group default is the generated client's field: sent only to an instance that shows it.
   */
  patchCreditControls(patch: CreditControlsPatch): Promise<CreditControls> {
    const id = 'entityGroupDefaultCredits' in patch ? 'creditControls.update~generated-client' : 'creditControls.update';
    return this.call(id, 'updating AI credit controls', { body: patch, shape: 'creditControls' });
  }

  /** Every individual user credit limit, by userId ascending. */
  listUserCreditLimits(): AsyncIterable<UserCreditLimitRecord> {
    return this.list('userCreditLimitList', 'userCreditLimits.list', 'listing user credit limits', (record) => record.userId);
  }

  /**
   * Sets or removes individual user credit limits, in batches of at most 1000 (each batch is
   * one transaction on the server); returns the results of all batches in order. An empty
   * list sends nothing.
   */
  async patchUserCreditLimits(body: UserCreditLimitPatch): Promise<UserCreditLimitPatchResult> {
    const users: UserCreditLimitPatchResult['users'] = [];
    const batches = chunks(body.users, CREDIT_LIMIT_BATCH_MAX);
    for (const [index, batch] of batches.entries()) {
      const part = batches.length === 1 ? '' : ` (batch ${index + 1} of ${batches.length})`;
      const operation = `updating ${batch.length} user credit limit${batch.length === 1 ? '' : 's'}${part}`;
      const result = await this.call('userCreditLimits.update', operation, {
        body: { users: batch },
        shape: 'userCreditLimitPatchResult',
      });
      users.push(...result.users);
    }
    return { users };
  }

  /**
   * This period's usage of these users (membership ids, no duplicates), in requests of at most
   * 1,000 ids: user id → credits used. A user the answer leaves out is not in the map.
   */
  async readUserCreditUsage(userIds: readonly string[]): Promise<Map<string, number>> {
    const used = new Map<string, number>();
    const batches = chunks([...new Set(userIds)], CREDIT_USAGE_BATCH_MAX);
    for (const [index, batch] of batches.entries()) {
      const part = batches.length === 1 ? '' : ` (batch ${index + 1} of ${batches.length})`;
      const operation = `reading the credit usage of ${batch.length} user${batch.length === 1 ? '' : 's'}${part}`;
      const answer = await this.call('creditUsage.users', operation, { body: { userIds: batch }, shape: 'userCreditUsage' });
      for (const user of answer.users) used.set(user.userId, user.creditsUsed);
    }
    return used;
  }

  /** Every user group with a credit limit of its own, by userGroupId. */
  listUserGroupCreditLimits(): AsyncIterable<UserGroupCreditLimitRecord> {
    return this.list('userGroupCreditLimitList', 'userGroupCreditLimits.list', 'listing user group credit limits', (record) => record.userGroupId);
  }

  /** Sets or removes user group credit limits, in batches of at most 1000 (one transaction each); empty sends nothing. */
  async patchUserGroupCreditLimits(body: UserGroupCreditLimitPatch): Promise<UserGroupCreditLimitPatchResult> {
    const userGroups: UserGroupCreditLimitPatchResult['userGroups'] = [];
    const batches = chunks(body.userGroups, CREDIT_LIMIT_BATCH_MAX);
    for (const [index, batch] of batches.entries()) {
      const part = batches.length === 1 ? '' : ` (batch ${index + 1} of ${batches.length})`;
      const operation = `updating ${batch.length} user group credit limit${batch.length === 1 ? '' : 's'}${part}`;
      const result = await this.call(
        'userGroupCreditLimits.update',
        operation,
        { body: { userGroups: batch }, shape: 'userGroupCreditLimitPatchResult' },
      );
      userGroups.push(...result.userGroups);
    }
    return { userGroups };
  }

  /** Every embed entity group credit limit. */
  listEntityGroupCreditLimits(): AsyncIterable<EntityGroupCreditLimitRecord> {
    return this.list('entityGroupCreditLimitList', 'entityGroupCreditLimits.list', 'listing entity group credit limits', (record) => record.entity);
  }

  /** Sets or removes entity group credit limits, in batches of at most 1000; empty sends nothing. */
  async patchEntityGroupCreditLimits(body: EntityGroupCreditLimitPatch): Promise<EntityGroupCreditLimitPatchResult> {
    const entityGroups: EntityGroupCreditLimitPatchResult['entityGroups'] = [];
    const batches = chunks(body.entityGroups, CREDIT_LIMIT_BATCH_MAX);
    for (const [index, batch] of batches.entries()) {
      const part = batches.length === 1 ? '' : ` (batch ${index + 1} of ${batches.length})`;
      const operation = `updating ${batch.length} entity group credit limit${batch.length === 1 ? '' : 's'}${part}`;
      const result = await this.call(
        'entityGroupCreditLimits.update',
        operation,
        { body: { entityGroups: batch }, shape: 'entityGroupCreditLimitPatchResult' },
      );
      entityGroups.push(...result.entityGroups);
    }
    return { entityGroups };
  }

  // ---- AI routines ----------------------------------------------------------------------

  /** Every routine of the caller (or of `userId`, with an organization key), newest first. */
  listRoutines(options: { userId?: string } = {}): AsyncIterable<Routine> {
    const operation = options.userId === undefined ? 'listing routines' : `listing routines of user ${options.userId}`;
    return this.list('routineList', 'routines.list', operation, (routine) => routine.id, {
      userId: options.userId,
    });
  }

  /** One routine by id. */
  getRoutine(id: string, options: RoutineCallOptions = {}): Promise<Routine> {
    return this.call('routines.get', `reading routine ${this.routineName(id, options)}`, {
      params: { routineId: id },
      query: { userId: options.userId },
      shape: 'routine',
    });
  }

  /** Creates a routine; a lost response is reported as outcome unknown, never retried. */
  createRoutine(body: RoutineCreate, options: { userId?: string } = {}): Promise<{ id: string }> {
    return this.call('routines.create', `creating routine ${quoted(body.name)}`, {
      query: { userId: options.userId },
      body,
      shape: 'createdRoutine',
    });
  }

  /** Updates a routine with the newer PATCH form (all fields optional). */
  patchRoutine(id: string, body: RoutinePatch, options: RoutineCallOptions = {}): Promise<Routine> {
    return this.call('routines.update~generated-client', `updating routine ${this.routineName(id, options, body.name)}`, {
      params: { routineId: id },
      query: { userId: options.userId },
      body,
      shape: 'routine',
    });
  }

  /** Updates a routine with the documented PUT form (full body; `isActive` pauses/resumes). */
  putRoutine(id: string, body: RoutinePut, options: RoutineCallOptions = {}): Promise<Routine> {
    return this.call('routines.update', `updating routine ${this.routineName(id, options, body.name)}`, {
      params: { routineId: id },
      query: { userId: options.userId },
      body,
      shape: 'routine',
    });
  }

  /** Deletes a routine (the answer, `{deleted, id}` or nothing, is checked but not returned). */
  async deleteRoutine(id: string, options: RoutineCallOptions = {}): Promise<void> {
    const operation = `deleting routine ${this.routineName(id, options)}`;
    const answer = await this.call('routines.delete', operation, {
      params: { routineId: id },
      query: { userId: options.userId },
      shape: 'deletedRoutine',
    });
    // A success status whose body says otherwise is not a delete.
    if (answer?.deleted === false) {
      throw new StewardError('apply.not-taken', `${operation}: the server answered \`deleted: false\`; the routine is still there`, 'server', {
        hint: 'the next plan will show the delete again; check the routine in the app',
      });
    }
  }

  /** Starts a run now; returns the run id (409 while a run is in progress). */
  triggerRoutine(id: string, options: RoutineCallOptions = {}): Promise<{ id: string }> {
    return this.call('routines.trigger', `triggering routine ${this.routineName(id, options)}`, {
      params: { routineId: id },
      query: { userId: options.userId },
      shape: 'routineRun',
    });
  }

  private routineName(id: string, options: RoutineCallOptions, bodyName?: string): string {
    const name = options.name ?? bodyName;
    return name === undefined ? id : `${quoted(name)} (${id})`;
  }

  // ---- labels ---------------------------------------------------------------------------

  /** Every label of the organization (the endpoint is not paginated). */
  async listLabels(): Promise<Label[]> {
    const list = await this.call('labels.list', 'listing labels', { shape: 'labelList' });
    // Names identify labels regardless of case: two of one name leave no telling which the
    // config means, and planning on either would rename or delete the other.
    const seen = new Map<string, string>();
    for (const { name } of list.labels) {
      const earlier = seen.get(labelKey(name));
      if (earlier !== undefined) {
        throw new StewardError(
          'api.duplicate',
          `listing labels: GET /api/v1/labels: the label ${quoted(earlier)} comes twice${earlier === name ? '' : ` (also as ${quoted(name)})`}; label names are unique regardless of case`,
          'server',
          { hint: 'nothing was planned; remove the duplicate label in the app, or ask the platform why it lists one' },
        );
      }
      seen.set(labelKey(name), name);
    }
    return list.labels;
  }

  /** One label by name (names are case-insensitive on the server). */
  getLabel(name: string): Promise<Label> {
    return this.call('labels.get', `reading label ${quoted(name)}`, { params: { labelName: name }, shape: 'label' });
  }

  /** Creates a label (409 when the name exists). */
  createLabel(body: LabelCreate): Promise<Label> {
    return this.call('labels.create', `creating label ${quoted(body.name)}`, { body, shape: 'label' });
  }

  /** Changes a label; a new `name` in the body renames it. */
  updateLabel(name: string, body: LabelUpdate): Promise<Label> {
    const rename = body.name !== undefined && body.name !== name ? ` (renaming to ${quoted(body.name)})` : '';
    return this.call('labels.update', `updating label ${quoted(name)}${rename}`, { params: { labelName: name }, body, shape: 'label' });
  }

  /** Deletes a label (409 while documents still carry it). */
  async deleteLabel(name: string): Promise<void> {
    await this.call('labels.delete', `deleting label ${quoted(name)}`, { params: { labelName: name } });
  }

  // ---- documents ------------------------------------------------------------------------

  /** Every document, optionally only those carrying `labels`, with `include` fields (e.g. labels). */
  listDocuments(options: { labels?: string[]; include?: string[]; onPage?: PageListener } = {}): AsyncIterable<DocumentRecord> {
    const labels = options.labels === undefined || options.labels.length === 0 ? undefined : options.labels.join(',');
    const include = options.include === undefined || options.include.length === 0 ? undefined : options.include.join(',');
    const operation = labels === undefined ? 'listing documents' : `listing documents labelled ${options.labels?.map(quoted).join(', ')}`;
    return this.list('documentList', 'documents.list', operation, (document) => document.identifier, {
      include,
      labels,
    }, options.onPage);
  }

  /** Applies a label to a document (a no-op when already applied). */
  async putDocumentLabel(identifier: string, label: string): Promise<void> {
    await this.call(
      'documents.labels.apply',
      `applying label ${quoted(label)} to document ${identifier}`,
      { params: { documentId: identifier, labelName: label } },
    );
  }

  /** Removes a label from a document. */
  async deleteDocumentLabel(identifier: string, label: string): Promise<void> {
    await this.call(
      'documents.labels.remove',
      `removing label ${quoted(label)} from document ${identifier}`,
      { params: { documentId: identifier, labelName: label } },
    );
  }

  /**
   * Adds and removes labels of one document in one call; returns its labels after. Sent with the
   * document's identifier, the only id the documents list gives (the documents page declares a
   * uuid, the vendor CLI's file either: gaps.md keeps it OPEN).
   */
  patchDocumentLabels(identifier: string, body: DocumentLabelsPatch): Promise<DocumentLabelsPatchResult> {
    return this.call('documents.labels.update~cli-openapi', `changing labels of document ${identifier}`, {
      params: { documentId: identifier },
      body,
      shape: 'documentLabels',
    });
  }

  // ---- folders -------------------------------------------------------------------------

  /** Every folder of the organization scope (restricted folders are listed only by owner), with `include` fields (e.g. labels). */
  listFolders(options: { include?: string[] } = {}): AsyncIterable<FolderRecord> {
    const include = options.include === undefined || options.include.length === 0 ? undefined : options.include.join(',');
    return this.list('folderList', 'folders.list', 'listing folders', (folder) => folder.id, { include });
  }

  /** Adds and removes labels of one folder in one call; returns its labels after. */
  patchFolderLabels(folderId: string, body: FolderLabelsPatch, folderPath?: string): Promise<FolderLabelsPatchResult> {
    return this.call('folders.labels.update', `changing labels of folder ${folderPath === undefined ? folderId : quoted(folderPath)}`, {
      params: { folderId },
      body,
      shape: 'folderLabels',
    });
  }

  // ---- models ---------------------------------------------------------------------------

  /**
   * Every model matching the filters (`name` as the server matches it: compare on the client),
   * with its active branches when `branches` is set.
   */
  listModels(options: { name?: string; modelId?: string; modelKind?: string; branches?: boolean } = {}): AsyncIterable<ModelRecord> {
    const operation = options.name !== undefined ? `listing models named ${quoted(options.name)}` : options.modelId !== undefined ? `reading model ${options.modelId}` : 'listing models';
    return this.list('modelList', 'models.list', operation, (model) => model.id, {
      name: options.name,
      modelId: options.modelId,
      modelKind: options.modelKind,
      include: options.branches === true ? 'activeBranches' : undefined,
    });
  }

  /** The topics of a model (404 when the model is missing or not accessible). */
  async listModelTopics(modelId: string, modelName?: string): Promise<ModelTopic[]> {
    const which = modelName === undefined ? modelId : `${quoted(modelName)} (${modelId})`;
    const list = await this.call('models.topics.list', `listing topics of model ${which}`, {
      params: { modelId },
      shape: 'modelTopics',
    });
    return list.topics;
  }

  // ---- SCIM -----------------------------------------------------------------------------
  // Paths as the documents write them (lowercase). Users filter only on `userName` (`eq`, `co`);
  // groups document no filter at all.

  /** Every SCIM user matching `filter` (`userName eq "…"`; an organization API key only). */
  listScimUsers(options: { filter?: string } = {}): AsyncIterable<ScimUser> {
    return this.scim('scimUserList', 'scim.users.list', 'listing users', options.filter);
  }

  /**
   * One page of the SCIM users (1-based `startIndex`): for readers that choose between a full
   * listing and lookups from `totalResults`, and fetch the remaining pages side by side.
   */
  scimUsersPage(startIndex: number, count: number, page: number): Promise<ScimList<ScimUser>> {
    return this.call('scim.users.list', 'listing users', { query: { startIndex, count }, shape: 'scimUserList', page });
  }

  /** One SCIM user by id (404 when the instance has no such user). */
  getScimUser(id: string): Promise<ScimUser> {
    return this.call('scim.users.get', `reading user ${id}`, { params: { id }, shape: 'scimUser' });
  }

  /**
   * One page of the SCIM groups (1-based `startIndex`): for readers that fetch the remaining
   * pages side by side once `totalResults` is known.
   */
  scimGroupsPage(startIndex: number, count: number, page: number): Promise<ScimList<ScimGroup>> {
    return this.call('scim.groups.list', 'listing user groups', { query: { startIndex, count }, shape: 'scimGroupList', page });
  }

  /** Every SCIM group (an organization API key only). */
  listScimGroups(): AsyncIterable<ScimGroup> {
    return this.scim('scimGroupList', 'scim.groups.list', 'listing user groups', undefined);
  }

  // ---- API keys -------------------------------------------------------------------------

  /** Metadata of every API token, optionally of one type, in the given order. */
  listApiKeys(
    options: { type?: ApiKeyType; sortField?: 'createdAt' | 'name'; sortDirection?: 'asc' | 'desc' } = {},
  ): AsyncIterable<ApiKeyRecord> {
    return this.list('apiKeyList', 'apiKeys.list', 'listing API keys', (key) => key.id, {
      type: options.type,
      sortField: options.sortField,
      sortDirection: options.sortDirection,
    });
  }
}

/** The ids a request names: its path parameters, and the values of id query keys (`userId`, `modelIds`). */
function subjectsOf(params: Record<string, string> | undefined, query: Record<string, QueryValue> | undefined): string[] {
  const fromQuery = Object.entries(query ?? {}).flatMap(([key, value]) => (/Ids?$/.test(key) && typeof value === 'string' ? value.split(',') : []));
  return [...Object.values(params ?? {}), ...fromQuery];
}
