// Builders for engine tests: a config, a directory of users, and live objects as the API returns them.
import type { Label, Routine } from '../../src/api/types.js';
import type { EnvironmentConfig, StewardConfig } from '../../src/config/types.js';
import type { LiveFolderLabels } from '../../src/kinds/labels/folderLabels.js';
import type { DesiredInput, ResourceKind } from '../../src/model/kind.js';
import { REGISTRY } from '../../src/kinds/registry.js';
import { Directory } from '../../src/resolve/directory.js';
import { diffAll, type LiveState } from '../../src/engine/planner.js';
import type { PlanStep, StepKind } from '../../src/model/plan.js';

export const USERS = [
  { id: 'u-ada', email: 'ada@acme.example' },
  { id: 'u-grace', email: 'grace@acme.example' },
  { id: 'u-ken', email: 'ken@acme.example' },
  { id: 'u-linus', email: 'linus@acme.example' },
];

export const ENVIRONMENT: EnvironmentConfig = { baseUrl: 'http://127.0.0.1:1', tokenEnv: 'TOKEN' };

export function config(parts: Partial<StewardConfig>): StewardConfig {
  return { version: 1, environments: { test: ENVIRONMENT }, ...parts };
}

export function input(parts: Partial<StewardConfig>, environment: EnvironmentConfig = ENVIRONMENT): DesiredInput {
  return { config: config(parts), environment, directory: Directory.of(USERS, USERS[0]) };
}

/** No folder of the deployment carries a label: the live folder labels a case leaves unsaid. */
export const NO_FOLDERS: LiveFolderLabels = { folders: [], carrying: new Map(), read: false };

/** GIVEN a config and live state, WHEN planning every kind the config declares, THEN these steps. */
export function planOffline(parts: Partial<StewardConfig>, live: LiveState, environment: EnvironmentConfig = ENVIRONMENT) {
  const desiredInput = input(parts, environment);
  const kinds = [...REGISTRY.values()].filter((kind: ResourceKind) => kind.declared(desiredInput.config));
  const desired = Object.fromEntries(kinds.map((kind) => [kind.kind, kind.desired(desiredInput)]));
  return diffAll(kinds, desired, { folderLabels: NO_FOLDERS, ...live });
}

/** The steps of one kind among a plan's, as that kind's steps (to hand to its module). */
export function stepsOf<K extends StepKind>(steps: readonly PlanStep[], kind: K): Extract<PlanStep, { kind: K }>[] {
  return steps.filter((step): step is Extract<PlanStep, { kind: K }> => step.kind === kind);
}

export function liveRoutine(overrides: Partial<Routine> & Pick<Routine, 'name'>): Routine {
  return {
    id: `r-${overrides.name.toLowerCase().replace(/\W+/g, '-')}`,
    prompt: 'Summarise revenue.',
    schedule: '0 9 ? * MON *',
    timezone: 'UTC',
    modelId: 'm-sales',
    branchId: null,
    topicName: null,
    description: null,
    destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
    disabled: false,
    systemDisabled: false,
    systemDisabledReason: null,
    lastRun: null,
    recipientCount: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function liveLabel(overrides: Partial<Label> & Pick<Label, 'name'>): Label {
  return { color: null, description: null, homepage: false, verified: false, usage_count: 0, ...overrides };
}
