// Labels: list, create, read, update (a new name renames; documents and folders keep the label)
// and delete (409 while applied to documents or folders, or, with `labelDeleteInUse: 'unlink'`,
// taken off them and deleted). Names compare case-insensitively; only Organization Admins may set `verified` or
// `homepage` (OpenAPI file wording for the messages). An organization key tied to no user
// creates labels with the key's own role.
import type { Label } from '../../api/types.js';
import {
  LABEL_COLOR_PATTERN,
  LABEL_DESCRIPTION_MAX,
  LABEL_NAME_MAX,
  LABEL_NAME_MIN,
  labelKey,
} from '../../domain/rules.js';
import { actingUser } from '../auth.js';
import type { RequestContext, Route } from '../context.js';
import { badRequest, conflict, forbidden, json, noContent, notFound } from '../http.js';
import { newUuid } from '../ids.js';
import type { EmulatorState, StoredLabel } from '../state.js';
import { booleanValue, nullableString, rejectUnknownFields, requireObject, stringValue, type JsonObject } from '../validate.js';

const LABEL_FIELDS = ['name', 'color', 'description', 'verified', 'homepage'] as const;
export const LABEL_NOT_FOUND = 'Label not found';
export const LABEL_IN_USE = 'Cannot delete label that is applied to documents';

/** The label with this name, compared case-insensitively. */
export function findLabel(state: EmulatorState, name: string): StoredLabel | undefined {
  const key = labelKey(name);
  return state.labels.find((label) => labelKey(label.name) === key);
}

/** The label with this name (case-insensitively); 404 `Label not found` when there is none. */
export function existingLabel(state: EmulatorState, name: string): StoredLabel {
  const label = findLabel(state, name);
  if (!label) throw notFound(LABEL_NOT_FOUND);
  return label;
}

/** How many (not deleted) documents and folders carry the label: both count in its usage, as the vendor documents. */
export function usageCount(state: EmulatorState, labelId: string): number {
  const documents = state.documents.filter((document) => !document.deleted && document.labelIds.includes(labelId)).length;
  return documents + state.folders.filter((folder) => folder.labelIds.includes(labelId)).length;
}

/** The wire form of a label. */
export function toLabel(label: StoredLabel, state: EmulatorState): Label {
  return {
    name: label.name,
    color: label.color,
    description: label.description,
    homepage: label.homepage,
    verified: label.verified,
    usage_count: usageCount(state, label.id),
  };
}

/** Every label, ordered by name. */
export function labelList(state: EmulatorState): Label[] {
  return [...state.labels]
    .sort((a, b) => (labelKey(a.name) < labelKey(b.name) ? -1 : 1))
    .map((label) => toLabel(label, state));
}

function parseName(value: unknown): string {
  const name = stringValue(value, 'name', { min: LABEL_NAME_MIN, max: LABEL_NAME_MAX });
  if (name.trim() !== name) throw badRequest('name', 'must not start or end with whitespace');
  return name;
}

/** The fields present in a create or update body, validated (400). */
function parseLabelFields(body: JsonObject): Partial<Omit<StoredLabel, 'id'>> {
  rejectUnknownFields(body, LABEL_FIELDS);
  const fields: Partial<Omit<StoredLabel, 'id'>> = {};
  if (body.name !== undefined) fields.name = parseName(body.name);
  if (body.color !== undefined) {
    fields.color = nullableString(body.color, 'color', {
      max: 9,
      pattern: LABEL_COLOR_PATTERN,
      patternReason: 'must be a hex colour like #0366d6',
    });
  }
  if (body.description !== undefined) {
    fields.description = nullableString(body.description, 'description', { max: LABEL_DESCRIPTION_MAX });
  }
  if (body.verified !== undefined) fields.verified = booleanValue(body.verified, 'verified');
  if (body.homepage !== undefined) fields.homepage = booleanValue(body.homepage, 'homepage');
  return fields;
}

function isAdmin(context: RequestContext): boolean {
  return actingUser(context).orgRole === 'ORG_ADMIN';
}

function createLabel(context: RequestContext) {
  const admin = isAdmin(context);
  const body = requireObject(context.body);
  if (body.name === undefined) throw badRequest('name', 'is required');
  const fields = parseLabelFields(body);
  if (!admin && (fields.verified === true || fields.homepage === true)) {
    throw forbidden('Permission denied - cannot create verified/homepage labels without admin permissions');
  }
  if (findLabel(context.state, fields.name!)) throw conflict('Label with this name already exists');
  const label: StoredLabel = {
    id: newUuid(),
    name: fields.name!,
    color: fields.color ?? null,
    description: fields.description ?? null,
    verified: fields.verified ?? false,
    homepage: fields.homepage ?? false,
  };
  context.state.labels.push(label);
  return json(toLabel(label, context.state), 201);
}

function updateLabel(context: RequestContext) {
  const admin = isAdmin(context);
  const label = existingLabel(context.state, context.params.name!);
  const fields = parseLabelFields(requireObject(context.body));
  const changesFlag =
    (fields.verified !== undefined && fields.verified !== label.verified) ||
    (fields.homepage !== undefined && fields.homepage !== label.homepage);
  if (!admin && changesFlag) {
    throw forbidden('Permission denied - cannot modify verified/homepage labels without admin permissions');
  }
  if (fields.name !== undefined) {
    const holder = findLabel(context.state, fields.name);
    if (holder && holder.id !== label.id) throw conflict('Label with new name already exists');
  }
  Object.assign(label, fields);
  return json(toLabel(label, context.state));
}

function deleteLabel(context: RequestContext) {
  const admin = isAdmin(context);
  const label = existingLabel(context.state, context.params.name!);
  if (!admin && (label.verified || label.homepage)) {
    throw forbidden('Permission denied - cannot delete verified/homepage labels without admin permissions');
  }
  if (context.knobs.labelDeleteInUse === 'conflict' && usageCount(context.state, label.id) > 0) {
    throw conflict(LABEL_IN_USE);
  }
  context.state.labels = context.state.labels.filter((candidate) => candidate.id !== label.id);
  for (const carrier of [...context.state.documents, ...context.state.folders]) {
    carrier.labelIds = carrier.labelIds.filter((id) => id !== label.id);
  }
  return noContent();
}

export const labelRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/v1/labels',
    handler: (context) => json({ labels: labelList(context.state) }),
  },
  { method: 'POST', template: '/api/v1/labels', handler: createLabel },
  {
    method: 'GET',
    template: '/api/v1/labels/{name}',
    handler: (context) => json(toLabel(existingLabel(context.state, context.params.name!), context.state)),
  },
  { method: 'PUT', template: '/api/v1/labels/{name}', handler: updateLabel },
  { method: 'DELETE', template: '/api/v1/labels/{name}', handler: deleteLabel },
];
