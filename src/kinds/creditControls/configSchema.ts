// The `creditControls:` section of a configuration file: this kind's part of the config schema,
// and its checks of what the schema cannot say (configChecks.ts). config/assembleSchema.ts puts it
// together with the other kinds' (kinds/configRegistry.ts lists them); `npm run generate` writes
// schemas/steward.schema.json and the config's types from it.
import type { KindConfigSchema } from '../../config/assembleSchema.js';
import { checkCreditControls } from './configChecks.js';

export const creditControlsConfigSchema: KindConfigSchema = {
  kinds: ['creditControls'],
  sections: {
    creditControls: {
      schema: {
        description:
          'Organization-wide AI credit controls. A field that is absent is not managed; null turns a threshold off or makes a default unlimited.',
        type: 'object',
        additionalProperties: false,
        properties: {
          downgradeCredits: {
            description: 'Usage at which AI downgrades to a cheaper model; null = control off. Must not exceed shutoffCredits.',
            $ref: '#/$defs/creditsOrNull',
          },
          shutoffCredits: {
            description: 'Usage at which AI shuts off entirely; null = control off.',
            $ref: '#/$defs/creditsOrNull',
          },
          userDefaultCredits: {
            description: 'Default per-user credit limit for the billing period; null = unlimited by default.',
            $ref: '#/$defs/creditsOrNull',
          },
          entityGroupDefaultCredits: {
            description: 'Default per-embed-entity-group credit limit; null = unlimited by default.',
            $ref: '#/$defs/creditsOrNull',
          },
        },
      },
    },
  },
  definitions: {
    creditsOrNull: {
      anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }, { $ref: '#/$defs/reference' }],
      errorMessage: 'must be a number ≥ 0 or null',
    },
  },
  checks: [checkCreditControls],
};
