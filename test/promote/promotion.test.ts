// Promotion's desired state: the source's sections with the target's ids, under the config's
// prune settings and protection.
import { describe, expect, it } from 'vitest';
import type { EnvironmentConfig, RoutineConfig, StewardConfig } from '../../src/config/types.js';
import type { ConfigSections } from '../../src/export/mapping.js';
import { promotedConfig, sectionsDigest } from '../../src/promote/promotion.js';

const PRODUCTION: EnvironmentConfig = { baseUrl: 'https://acme.example.com', tokenEnv: 'PROD', variables: { salesModelId: 'm-prod' } };
const PLAYGROUND: EnvironmentConfig = { baseUrl: 'https://play.acme.example.com', tokenEnv: 'PLAY', variables: { salesModelId: 'm-play' }, protect: { routines: true } };

function routine(name: string, overrides: Partial<RoutineConfig> = {}): RoutineConfig {
  return { name, prompt: 'p', schedule: '0 9 ? * MON *', timezone: 'UTC', modelId: 'm-play', destination: { type: 'slack', recipientId: 'C0ABCDEF1', slackRecipientType: 'channel' }, ...overrides };
}

function promote(config: Partial<StewardConfig>, sections: ConfigSections) {
  return promotedConfig({
    config: { version: 1, environments: { production: PRODUCTION, playground: PLAYGROUND }, ...config },
    source: { name: 'playground', environment: PLAYGROUND },
    target: { name: 'production', environment: PRODUCTION },
    sections,
  });
}

describe('promotedConfig', () => {
  it('takes the source\'s objects with the target\'s ids, and keeps the config\'s prune settings and environments', () => {
    const promoted = promote(
      { routines: [routine('Declared but not in the source', { modelId: 'm-prod' })], prune: { routines: true, labels: false } },
      { routines: [routine('Digest')], creditControls: { shutoffCredits: 5 } },
    );
    expect(promoted.config).toEqual({
      version: 1,
      environments: { production: PRODUCTION, playground: PLAYGROUND },
      creditControls: { shutoffCredits: 5 },
      routines: [routine('Digest', { modelId: 'm-prod' })],
      prune: { routines: true, labels: false },
    });
    expect(promoted.environment).toBe(PRODUCTION);
    expect(promoted.warnings).toEqual([]);
  });

  it('carries protect, renamedFrom and pruneDocuments over by name, and protects declared objects the source lacks', () => {
    const promoted = promote(
      {
        userCreditLimits: [{ email: 'Grace@acme.example', creditLimit: 750, protect: true }],
        routines: [routine('Guarded', { protect: true })],
        labels: [
          { name: 'board-kpis', renamedFrom: ['legacy-kpis', 'kpis'], documents: [], pruneDocuments: true },
          { name: 'keep-me', protect: true },
        ],
      },
      {
        userCreditLimits: [{ email: 'grace@acme.example', creditLimit: 500 }],
        labels: [{ name: 'Board-KPIs', color: null, documents: ['9d8e7f60'] }, { name: 'kpis', documents: [] }],
      },
    );
    expect(promoted.config.userCreditLimits).toEqual([{ email: 'grace@acme.example', creditLimit: 500, protect: true }]);
    // `kpis` is a label of the source itself, so it is not renamed into board-kpis.
    expect(promoted.config.labels).toEqual([
      { name: 'Board-KPIs', color: null, documents: ['9d8e7f60'], renamedFrom: ['legacy-kpis'], pruneDocuments: true },
      { name: 'kpis', documents: [] },
    ]);
    expect(promoted.environment.protect).toEqual({ userCreditLimits: ['Grace@acme.example'], routines: ['Guarded'], labels: ['keep-me'] });
    expect(promoted.config.environments.production).toBe(promoted.environment);
  });

  it('warns about an owner the config names who has no routines in the source', () => {
    const promoted = promote({ routines: [routine('KPIs', { owner: 'grace@acme.example' })] }, { routines: [routine('Digest')] });
    expect(promoted.warnings.map((warning) => warning.message)).toEqual([
      'grace@acme.example has no routines in playground, so their routines in production are left as they are (a promotion compares the routines of owners the source has)',
    ]);
  });

  it('refuses a model id no variable names', () => {
    expect(() => promote({}, { routines: [routine('Digest', { modelId: 'm-lost' })] })).toThrow('routine "Digest": modelId m-lost of playground is not the value of any variable');
  });
});

describe('sectionsDigest', () => {
  it('is the same for the same state written in another key order, and differs when a value differs', () => {
    const a = sectionsDigest({ creditControls: { shutoffCredits: 5, downgradeCredits: 1 }, labels: [{ name: 'x', color: null }] });
    const b = sectionsDigest({ labels: [{ color: null, name: 'x' }], creditControls: { downgradeCredits: 1, shutoffCredits: 5 } });
    const c = sectionsDigest({ labels: [{ color: '#fff', name: 'x' }], creditControls: { downgradeCredits: 1, shutoffCredits: 5 } });
    expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });
});
