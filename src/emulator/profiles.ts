// The two sides of every OPEN point of gaps.md. The emulator answers each open question one way
// (a knob); a profile picks all of them at once: `vendor` is the platform as the vendor documents
// it (vendor-contract.md) wherever the vendor speaks, with gaps.md's rule on each open point;
// `other` takes the opposite answer on each point of the server's own behaviour, and the answers
// of the vendor's other sources where they differ (its generated client), as an independent
// server might. A knob given explicitly overrides its
// profile, so tests can mix the two. Whether documents keep their identifiers across
// deployments is a property of the data, not of one server: it is a knob both profiles leave at
// `shared`, for the tests that compare two deployments.
import { StewardError } from '../errors.js';

export const EMULATOR_PROFILES = ['vendor', 'other'] as const;
export type EmulatorProfile = (typeof EMULATOR_PROFILES)[number];

/** What `GET /api/v1/whoami` answers as `user` for an organization key. */
export const ORG_KEY_USER_FORMS = ['creator', 'absent', 'null', 'null-fields'] as const;
/**
 * `creator`: the user who created the key (and the key acts for that user when no `userId` is
 * given); `absent`: no `user` key; `null`: `user: null`; `null-fields`: `{id: null, membershipId:
 * null}`. Every form but `creator` makes the key act for no user.
 */
export type OrgKeyUser = (typeof ORG_KEY_USER_FORMS)[number];

/**
 * How routines are updated: `put`, only by the documented PUT (name, prompt, schedule,
 * description, modelId, isActive; PATCH answers 405); `patch`, also by the generated client's
 * PATCH (timezone and destination too, but no isActive), beside the documented PUT.
 */
export const ROUTINE_UPDATE_METHODS = ['put', 'patch'] as const;
export type RoutineUpdateMethod = (typeof ROUTINE_UPDATE_METHODS)[number];

/** What `labels=a,b` on the documents list means: documents carrying all of them, or any. */
export const DOCUMENT_LABELS_FILTERS = ['all', 'any'] as const;
export type DocumentLabelsFilter = (typeof DOCUMENT_LABELS_FILTERS)[number];

/** How the per-key request budget is counted: a sliding window, or fixed windows from the epoch. */
export const RATE_LIMIT_WINDOWS = ['sliding', 'fixed'] as const;
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];

/**
 * What a request key the vendor does not document gets: `refuse`, a 400 naming it (`Unrecognized
 * key(s) in object`), as the vendor's servers answer; `ignore`, dropped silently, as a lenient
 * server might.
 */
export const UNKNOWN_KEYS = ['refuse', 'ignore'] as const;
export type UnknownKeys = (typeof UNKNOWN_KEYS)[number];

/** What DELETE of a label applied to documents does: 409, or delete it and take it off them. */
export const LABEL_DELETE_IN_USE = ['conflict', 'unlink'] as const;
export type LabelDeleteInUse = (typeof LABEL_DELETE_IN_USE)[number];

/** What `name=` on the models list matches: the exact name, or any name containing it, case-insensitively. */
export const MODEL_NAME_FILTERS = ['exact', 'contains'] as const;
export type ModelNameFilter = (typeof MODEL_NAME_FILTERS)[number];

/**
 * Which id the user-group credit-limit API takes and lists as `userGroupId`: the group's SCIM id
 * (what steward sends for a group named by display name), or the group's uuid (as routine
 * `userGroupIds` are); the other form answers 404. Both profiles leave it at `scim`: under `uuid`
 * a config can name groups only by `userGroupId:`, so the shared examples (which name groups) would
 * not apply there; tests choose `uuid` explicitly.
 */
export const USER_GROUP_ID_FORMS = ['scim', 'uuid'] as const;
export type UserGroupIdForm = (typeof USER_GROUP_ID_FORMS)[number];

/**
 * What a SCIM user's `id` is: the membership id every `userId` parameter takes (the vendor's admin
 * skill says so, and steward relies on it), or the user's own id, as whoami's `user.id` (some
 * OpenAPI examples read that way). Both profiles leave it at `membership`; tests choose `user`.
 */
export const SCIM_USER_IDS = ['membership', 'user'] as const;
export type ScimUserIds = (typeof SCIM_USER_IDS)[number];

/**
 * What the bulk document-label PATCH takes as `documentId`: the document's `identifier`, which the
 * documents list gives (the vendor CLI's file: "document ID or identifier slug"), or only a uuid,
 * as the documents page declares. Both profiles take the identifier (steward sends it); tests
 * choose `uuid`.
 */
export const DOCUMENT_LABELS_PATH_IDS = ['identifier', 'uuid'] as const;
export type DocumentLabelsPathId = (typeof DOCUMENT_LABELS_PATH_IDS)[number];

/**
 * Whether the built-in `demo-playground` dataset gives its documents the identifiers they have in
 * `demo` (`shared`), or identifiers of its own (`per-deployment`: none of demo's exists there).
 */
export const DOCUMENT_IDENTIFIERS = ['shared', 'per-deployment'] as const;
export type DocumentIdentifiers = (typeof DOCUMENT_IDENTIFIERS)[number];

/** One answer to each open point, all settled. */
export interface EmulatorKnobs {
  orgKeyUser: OrgKeyUser;
  /** An organization key without `userId` on any routine endpoint gets 400. */
  routinesRequireUserId: boolean;
  documentLabelsFilter: DocumentLabelsFilter;
  rateLimitWindow: RateLimitWindow;
  /** Length of the rate-limit window; the request budget counts per window. */
  rateLimitWindowMs: number;
  /** Whether 429 answers carry `Retry-After`. */
  sendRetryAfter: boolean;
  routineUpdateMethod: RoutineUpdateMethod;
  unknownKeys: UnknownKeys;
  /** Credit controls read and write `entityGroupDefaultCredits` (the generated client), beside the seven documented fields. */
  entityGroupDefaultCredits: boolean;
  labelDeleteInUse: LabelDeleteInUse;
  userGroupIdForm: UserGroupIdForm;
  scimUserIds: ScimUserIds;
  documentLabelsPathId: DocumentLabelsPathId;
  modelNameFilter: ModelNameFilter;
  /** Only the `demo-playground` dataset reads it; seed data sets its own identifiers. */
  documentIdentifiers: DocumentIdentifiers;
  /**
   * `POST /api/v1/ai/credit-usage/users` is served (OmniKit and the agent skills know it; the docs
   * OpenAPI does not): off, it answers 404 like any unknown path, as a server without it would.
   */
  creditUsage: boolean;
}

export const DEFAULT_RATE_LIMIT_WINDOW_MS = 60_000;

/** Each profile's answers. */
export const PROFILE_KNOBS: Readonly<Record<EmulatorProfile, Readonly<EmulatorKnobs>>> = {
  vendor: {
    orgKeyUser: 'creator',
    routinesRequireUserId: false,
    documentLabelsFilter: 'all',
    rateLimitWindow: 'sliding',
    rateLimitWindowMs: DEFAULT_RATE_LIMIT_WINDOW_MS,
    sendRetryAfter: true,
    routineUpdateMethod: 'put',
    unknownKeys: 'refuse',
    entityGroupDefaultCredits: false,
    labelDeleteInUse: 'conflict',
    userGroupIdForm: 'scim',
    scimUserIds: 'membership',
    documentLabelsPathId: 'identifier',
    modelNameFilter: 'exact',
    documentIdentifiers: 'shared',
    creditUsage: true,
  },
  other: {
    orgKeyUser: 'null-fields',
    routinesRequireUserId: true,
    documentLabelsFilter: 'any',
    rateLimitWindow: 'fixed',
    rateLimitWindowMs: DEFAULT_RATE_LIMIT_WINDOW_MS,
    sendRetryAfter: false,
    routineUpdateMethod: 'patch',
    unknownKeys: 'ignore',
    entityGroupDefaultCredits: true,
    labelDeleteInUse: 'unlink',
    userGroupIdForm: 'scim',
    scimUserIds: 'membership',
    documentLabelsPathId: 'identifier',
    modelNameFilter: 'contains',
    documentIdentifiers: 'shared',
    creditUsage: false,
  },
};

/** The knobs in the order they are described. */
export const KNOB_NAMES = Object.keys(PROFILE_KNOBS.vendor) as (keyof EmulatorKnobs)[];

function invalid(message: string): StewardError {
  return new StewardError('emulator.option.invalid', message, 'user');
}

/** `a or b`, or `one of a, b, c`: how messages name the allowed values. */
export function allowedValues(choices: readonly string[]): string {
  return choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`;
}

function checkChoice(name: string, value: unknown, choices: readonly string[]): void {
  if (value !== undefined && !choices.includes(value as string)) {
    throw invalid(`${name} must be ${allowedValues(choices)}, got ${String(value)}`);
  }
}

function checkBoolean(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') throw invalid(`${name} must be true or false, got ${String(value)}`);
}

/** Throws a StewardError (`emulator.option.invalid`) naming the first malformed profile or knob. */
export function checkProfileOptions(options: { profile?: unknown } & Partial<Record<keyof EmulatorKnobs, unknown>>): void {
  checkChoice('profile', options.profile, EMULATOR_PROFILES);
  checkChoice('orgKeyUser', options.orgKeyUser, ORG_KEY_USER_FORMS);
  checkBoolean('routinesRequireUserId', options.routinesRequireUserId);
  checkChoice('documentLabelsFilter', options.documentLabelsFilter, DOCUMENT_LABELS_FILTERS);
  checkChoice('rateLimitWindow', options.rateLimitWindow, RATE_LIMIT_WINDOWS);
  const windowMs = options.rateLimitWindowMs;
  if (windowMs !== undefined && (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs < 1)) {
    throw invalid(`rateLimitWindowMs must be a whole number of milliseconds >= 1, got ${String(windowMs)}`);
  }
  checkBoolean('sendRetryAfter', options.sendRetryAfter);
  checkChoice('routineUpdateMethod', options.routineUpdateMethod, ROUTINE_UPDATE_METHODS);
  checkChoice('unknownKeys', options.unknownKeys, UNKNOWN_KEYS);
  checkBoolean('entityGroupDefaultCredits', options.entityGroupDefaultCredits);
  checkBoolean('creditUsage', options.creditUsage);
  checkChoice('labelDeleteInUse', options.labelDeleteInUse, LABEL_DELETE_IN_USE);
  checkChoice('userGroupIdForm', options.userGroupIdForm, USER_GROUP_ID_FORMS);
  checkChoice('scimUserIds', options.scimUserIds, SCIM_USER_IDS);
  checkChoice('documentLabelsPathId', options.documentLabelsPathId, DOCUMENT_LABELS_PATH_IDS);
  checkChoice('modelNameFilter', options.modelNameFilter, MODEL_NAME_FILTERS);
  checkChoice('documentIdentifiers', options.documentIdentifiers, DOCUMENT_IDENTIFIERS);
}

/** The profile's knobs with every knob given in `overrides` taking precedence. */
export function resolveKnobs(profile: EmulatorProfile, overrides: Partial<EmulatorKnobs>): EmulatorKnobs {
  const knobs: EmulatorKnobs = { ...PROFILE_KNOBS[profile] };
  for (const name of KNOB_NAMES) override(knobs, overrides, name);
  return knobs;
}

function override<K extends keyof EmulatorKnobs>(knobs: EmulatorKnobs, overrides: Partial<EmulatorKnobs>, name: K): void {
  const value = overrides[name];
  if (value !== undefined) knobs[name] = value;
}

/** One phrase per knob, saying what the emulator does with that answer. */
export function describeKnob(name: keyof EmulatorKnobs, knobs: EmulatorKnobs): string {
  switch (name) {
    case 'orgKeyUser':
      return knobs.orgKeyUser === 'creator'
        ? 'organization keys act for their creator (whoami user = creator)'
        : `organization keys act for no user (whoami user ${
            { absent: 'absent', null: 'null', 'null-fields': '{id: null, membershipId: null}' }[knobs.orgKeyUser]
          })`;
    case 'routinesRequireUserId':
      return knobs.routinesRequireUserId
        ? 'routine endpoints need userId with organization keys (400 without)'
        : 'routine endpoints take organization keys without userId';
    case 'documentLabelsFilter':
      return `documents labels=a,b matches ${knobs.documentLabelsFilter === 'all' ? 'ALL' : 'ANY'} of them`;
    case 'rateLimitWindow':
    case 'rateLimitWindowMs':
      return `${knobs.rateLimitWindow} ${knobs.rateLimitWindowMs / 1000} s rate-limit windows`;
    case 'sendRetryAfter':
      return knobs.sendRetryAfter ? '429 with Retry-After' : '429 without Retry-After';
    case 'routineUpdateMethod':
      return knobs.routineUpdateMethod === 'put'
        ? 'routine updates by the documented PUT only'
        : 'routine updates by PATCH (the generated client\'s) as well as PUT';
    case 'unknownKeys':
      return knobs.unknownKeys === 'refuse' ? 'undocumented request keys answer 400' : 'undocumented request keys are ignored';
    case 'entityGroupDefaultCredits':
      return knobs.entityGroupDefaultCredits
        ? 'credit controls carry entityGroupDefaultCredits (the generated client\'s field)'
        : 'credit controls carry the seven documented fields';
    case 'creditUsage':
      return knobs.creditUsage ? 'credit usage is served (POST /api/v1/ai/credit-usage/users)' : 'no credit-usage endpoint (404), as on an instance without it';
    case 'labelDeleteInUse':
      return knobs.labelDeleteInUse === 'conflict'
        ? 'deleting a label in use answers 409'
        : 'deleting a label in use takes it off its documents';
    case 'userGroupIdForm':
      return knobs.userGroupIdForm === 'scim'
        ? 'user group credit limits take SCIM group ids'
        : 'user group credit limits take group uuids (SCIM ids answer 404)';
    case 'scimUserIds':
      return knobs.scimUserIds === 'membership'
        ? 'SCIM user ids are membership ids'
        : 'SCIM user ids are user ids, not the membership ids userId parameters take';
    case 'documentLabelsPathId':
      return knobs.documentLabelsPathId === 'identifier'
        ? 'the document-label PATCH takes document identifiers'
        : 'the document-label PATCH takes only uuids (identifiers answer 400)';
    case 'modelNameFilter':
      return knobs.modelNameFilter === 'exact'
        ? 'models name= matches the exact name'
        : 'models name= matches names containing it, in any case';
    case 'documentIdentifiers':
      return knobs.documentIdentifiers === 'shared'
        ? 'demo-playground documents keep the identifiers they have in demo'
        : 'demo-playground documents have identifiers of their own';
    default: {
      const unknownKnob: never = name;
      throw new Error(`no description for knob ${String(unknownKnob)}`);
    }
  }
}

/** Phrases for every knob that differs from the vendor profile (the window once). */
export function differencesFromVendor(knobs: EmulatorKnobs): string[] {
  const reference = PROFILE_KNOBS.vendor;
  const phrases: string[] = [];
  for (const name of KNOB_NAMES) {
    if (knobs[name] === reference[name]) continue;
    const phrase = describeKnob(name, knobs);
    if (!phrases.includes(phrase)) phrases.push(phrase);
  }
  return phrases;
}
