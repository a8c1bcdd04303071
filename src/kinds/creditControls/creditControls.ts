// AI credit controls: one organization-wide singleton. Only the fields the config declares are
// managed, and one PATCH carries every changed field, because the server checks
// downgrade <= shutoff on the merged result (moving both in two requests could fail halfway).
// The vendor documents three settings; `entityGroupDefaultCredits` (the generated client's) is
// planned only where the instance shows it, and is otherwise an error before anything is written.
import { CREDIT_CONTROL_FIELDS, type CreditControls, type CreditControlSettings, type CreditControlsPatch } from '../../api/types.js';
import type { CreditControlsConfig } from '../../config/types.js';
import { StewardError } from '../../errors.js';
import { grouped } from '../../domain/numbers.js';
import { changedFields, pick } from '../../model/fields.js';
import type { PlanStep } from '../../model/plan.js';
import type { KindExport, LoweredLimit, ResourceKind } from '../../model/kind.js';
import { expectTaken } from '../shared.js';
import { isLower, organizationUsage } from '../lowered.js';

declare module '../../model/plan.js' {
  interface KindSteps {
    /** The settings a step changes (only those); the singleton needs no id. */
    creditControls: { state: CreditControlsPatch; ref: Record<string, never> };
  }
}

export type DesiredCreditControls = Partial<CreditControlSettings>;

const KEY = 'credit controls';

// Export: every setting steward manages, as live.
const creditControlsExport: KindExport<DesiredCreditControls, CreditControls, CreditControls> = {
  read: (context) => context.read({}),
  section: (live) => creditControlsConfig(live),
  holds: () => 'credit controls',
  sharedNote: ({ source, target, account }) => ({
    code: 'promote.shared-credit-controls',
    message: `credit controls are not promoted: ${source} and ${target} share them (account \`${account}\`), so they are one setting, planned with either environment`,
  }),
};

/** Every credit-control setting steward manages, as live (the entity-group default only where the instance shows it). */
export function creditControlsConfig(live: CreditControls): CreditControlsConfig {
  const config: CreditControlsConfig = {};
  for (const field of CREDIT_CONTROL_FIELDS) if (live[field] !== undefined) config[field] = live[field];
  return config;
}

export const creditControls: ResourceKind<DesiredCreditControls, CreditControls, 'creditControls'> = {
  kind: 'creditControls',
  presentation: {
    noun: ['credit controls', 'credit controls'],
    title: () => 'credit controls',
    // A null threshold is switched off; a null default is unlimited.
    nullMeans: (path) => (path.endsWith('DefaultCredits') ? 'unlimited' : 'off'),
  },
  order: { level: 0 },
  // The vendor: these settings apply to all instances of an organization.
  accountWide: true,
  export: creditControlsExport,
  targeting: { noun: 'credit controls', names: () => undefined, pruned: () => false },
  access: { adminOnly: true },
  readAfter: [],

  declared: (config) => config.creditControls !== undefined && Object.keys(config.creditControls).length > 0,

  emails: () => [],

  desired({ config }) {
    return pick({ ...config.creditControls }, CREDIT_CONTROL_FIELDS) as DesiredCreditControls;
  },

  read: ({ api }) => api.getCreditControls(),

  diff(desired, live) {
    if ('entityGroupDefaultCredits' in desired && live.entityGroupDefaultCredits === undefined) {
      throw new StewardError(
        'plan.unsupported-setting',
        'creditControls.entityGroupDefaultCredits: this instance\'s credit controls show no entity-group default (the documented API has none), so steward can neither read nor set it',
        'user',
        {
          hint: 'remove `entityGroupDefaultCredits` from creditControls (the config declares credit controls once, for every environment, so it can be managed only where every deployment shows it); give entity groups their own limits under entityGroupCreditLimits',
          details: { configPath: ['creditControls', 'entityGroupDefaultCredits'] },
        },
      );
    }
    const managed = Object.keys(desired);
    const fields = changedFields(pick(live, managed), desired);
    if (fields.length === 0) return { steps: [], warnings: [] };
    const merged = { ...live, ...desired };
    if (
      merged.downgradeCredits !== null &&
      merged.shutoffCredits !== null &&
      merged.downgradeCredits > merged.shutoffCredits
    ) {
      // One of the two comes from the live settings (the config declares both in order, or
      // validation would have said so): say which, with its live value.
      const from = (field: 'downgradeCredits' | 'shutoffCredits') => (field in desired ? 'in the config' : `live; the config leaves it out`);
      const missing = 'downgradeCredits' in desired ? 'shutoffCredits' : 'downgradeCredits';
      throw new StewardError(
        'plan.credit-thresholds',
        `creditControls: downgradeCredits ${grouped(merged.downgradeCredits)} (${from('downgradeCredits')}) would exceed shutoffCredits ${grouped(merged.shutoffCredits)} (${from('shutoffCredits')}), and the server refuses that`,
        'user',
        {
          hint: `declare \`${missing}\` too (live: ${grouped(live[missing] as number)}), so the two thresholds move together`,
          details: { configPath: ['creditControls', 'downgradeCredits' in desired ? 'downgradeCredits' : 'shutoffCredits'] },
        },
      );
    }
    const changed = fields.map((field) => field.path);
    const step: PlanStep<'creditControls'> = {
      id: 'creditControls/settings',
      kind: 'creditControls',
      key: KEY,
      action: 'update',
      dependsOn: [],
      ref: {},
      before: pick(live, changed),
      after: pick(desired, changed),
      fields,
    };
    return { steps: [step], warnings: [] };
  },

  current: (step, live) => pick(live, Object.keys('after' in step ? step.after : step.before)),

  async apply(steps, { api, attempt }) {
    for (const step of steps) {
      await attempt([step], async () => {
        if (step.action !== 'update') throw new StewardError('apply.invalid-step', `credit controls cannot be ${step.action}d`, 'tool');
        expectTaken('updating credit controls', step.after, { ...(await api.patchCreditControls(step.after)) });
      });
    }
  },

  writeRequests: (steps) => steps.length,

  credits: (step) =>
    step.action === 'delete'
      ? []
      : CREDIT_CONTROL_FIELDS.flatMap((field) => {
          const value = step.after[field];
          // A threshold switched off never stops spending; a default of null is unlimited.
          return value === undefined ? [] : [{ field, value, nullMeans: field.endsWith('DefaultCredits') ? 'unlimited' : 'off' }];
        }),

  allowance(live, steps) {
    const after = steps.reduce<CreditControls>((state, step) => (step.action === 'update' ? { ...state, ...step.after } : state), { ...live });
    return { scope: 'organization', userDefault: after.userDefaultCredits, accountCreditLimit: live.accountCreditLimit };
  },

  // A threshold is judged against the organization's usage, which the credit controls carry; a
  // lower default against the same total, as an estimate (users' own usage is not read for it).
  lowered(step, allLive) {
    if (step.action !== 'update') return [];
    const used = organizationUsage(allLive);
    return step.fields.flatMap((field): LoweredLimit[] => {
      if (!isLower(field.after, field.before)) return [];
      const effect = field.path === 'shutoffCredits' ? 'shutoff' : field.path === 'downgradeCredits' ? 'downgrade' : 'cutoff';
      return [{ scope: effect === 'cutoff' ? 'default' : 'organization', field: field.path, limit: field.after, effect, ...(used === undefined ? {} : { used }) }];
    });
  },
};
