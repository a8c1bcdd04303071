// Promotion carries a routine's former names over by name (a rename applied in the playground is
// a rename in production, keeping the routine's id there), except a former name the source still
// has as a routine of the same owner; and models go by name, so nothing is mapped.
import { describe, expect, it } from 'vitest';
import type { EnvironmentConfig, RoutineConfig } from '../../src/config/types.js';
import { promotedConfig } from '../../src/promote/promotion.js';

const PRODUCTION: EnvironmentConfig = { baseUrl: 'https://acme.example.com', tokenEnv: 'PROD' };
const PLAYGROUND: EnvironmentConfig = { baseUrl: 'https://play.acme.example.com', tokenEnv: 'PLAY' };

function routine(name: string, overrides: Partial<RoutineConfig> = {}): RoutineConfig {
  return { name, prompt: 'p', schedule: '0 9 ? * MON *', timezone: 'UTC', model: 'Sales', branch: null, destination: { type: 'slack', recipientId: 'C0ABCDEF1', slackRecipientType: 'channel' }, ...overrides };
}

describe('promoting renamed routines', () => {
  it('carries renamedFrom over by name, but not a former name the same owner still has in the source', () => {
    const promoted = promotedConfig({
      config: {
        version: 1,
        environments: { production: PRODUCTION, playground: PLAYGROUND },
        routines: [
          routine('Revenue digest (weekly)', { renamedFrom: ['Weekly revenue digest', 'Revenue digest'] }),
          routine('KPIs', { owner: 'grace@acme.example', renamedFrom: ['Old KPIs'] }),
        ],
      },
      source: { name: 'playground', environment: PLAYGROUND },
      target: { name: 'production', environment: PRODUCTION },
      sections: {
        routines: [
          routine('Revenue digest (weekly)'),
          routine('Revenue digest'),
          routine('KPIs', { owner: 'grace@acme.example' }),
          // Another owner's routine of a former name does not keep Grace's rename from happening.
          routine('Old KPIs'),
        ],
      },
    });
    expect(promoted.config.routines).toEqual([
      routine('Revenue digest (weekly)', { renamedFrom: ['Weekly revenue digest'] }),
      routine('Revenue digest'),
      routine('KPIs', { owner: 'grace@acme.example', renamedFrom: ['Old KPIs'] }),
      routine('Old KPIs'),
    ]);
  });
});
