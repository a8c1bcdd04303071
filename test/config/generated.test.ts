// The config schema is declared once, by config/schemaParts.ts and each kind folder's
// configSchema.ts; schemas/steward.schema.json and src/config/configTypes.generated.ts follow from
// it, as schemas/emulator-seed.schema.json follows from src/emulator/seedSchema.ts. A declaration
// edited without `npm run generate` fails here, as do two kinds declaring one name, and a keyword
// the type printer would have to guess at. (What a new kind's declaration adds to the schema and
// the types: test/architecture/toyKind.test.ts.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printConfigTypes } from '../../scripts/configTypes.js';
import { generatedFiles } from '../../scripts/generate-config.js';
import { assembleConfigSchema, configKinds, type KindConfigSchema } from '../../src/config/assembleSchema.js';
import { KINDS, PRUNABLE_KINDS } from '../../src/config/types.js';
import { CONFIG_SCHEMAS } from '../../src/kinds/configRegistry.js';
import { REGISTRY } from '../../src/kinds/registry.js';

/** A kind of this test's own, with one list section of `toy` entries. */
function toys(overrides: Partial<KindConfigSchema> = {}): KindConfigSchema {
  return {
    kinds: ['toys'],
    sections: { toys: { schema: { description: 'Toys.', type: 'array', items: { $ref: '#/$defs/toy' } } } },
    definitions: {
      toy: { description: 'A toy.', type: 'object', additionalProperties: false, properties: { name: { description: 'Its name.', type: 'string' } } },
    },
    checks: [],
    ...overrides,
  };
}

describe('the generated files', () => {
  it.each(generatedFiles())('$path is what the declarations make (else: npm run generate)', ({ path, text }) => {
    expect(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'), `${path} is stale: run npm run generate`).toBe(text);
  });

  it('name the kinds the registry holds, in the order a user reads about them', () => {
    expect([...REGISTRY.keys()].sort()).toEqual([...KINDS].sort());
    expect(configKinds(CONFIG_SCHEMAS)).toEqual({ kinds: [...KINDS], prunable: [...PRUNABLE_KINDS] });
  });
});

describe('assembling the config schema', () => {
  it("puts a kind's section, definitions and prune, ignore and protect entries in their places", () => {
    const prunable = {
      prune: 'Delete toys not declared.',
      ignore: 'Ignored fields of every toy.',
      protect: 'true, or the toys never deleted.',
      ignoreRules: { noun: 'toy', fields: [], refused: {} },
    };
    const schema = assembleConfigSchema([toys({ sections: { toys: { ...toys().sections.toys!, prunable } } })]) as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(schema.properties!)).toEqual(['version', 'environments', 'toys', 'prune', 'ignore', 'policies']);
    expect(Object.keys(schema.$defs!)).toEqual(['reference', 'boolean', 'until', 'ignoreList', 'protectList', 'environment', 'policies', 'toy']);
    expect(schema.properties!.prune).toMatchObject({ properties: { toys: { description: prunable.prune, $ref: '#/$defs/boolean' } } });
    expect(schema.properties!.ignore).toMatchObject({ properties: { toys: { description: prunable.ignore, $ref: '#/$defs/ignoreList' } } });
    expect(schema.$defs!.environment).toMatchObject({ properties: { protect: { properties: { toys: { description: prunable.protect, $ref: '#/$defs/protectList' } } } } });
  });

  it('refuses a kind, a section or a definition declared twice, or taking a name of the top level', () => {
    expect(() => assembleConfigSchema([...CONFIG_SCHEMAS, toys({ kinds: ['toys', 'routines'] })])).toThrow('the config schema declares kind routines twice');
    expect(() => assembleConfigSchema([toys({ kinds: ['policies'], sections: { policies: toys().sections.toys! } })])).toThrow(
      'the config schema declares the top-level key policies twice',
    );
    expect(() => assembleConfigSchema([toys(), toys({ kinds: ['games'], sections: {} })])).toThrow('the config schema declares the definition toy twice');
    expect(() => assembleConfigSchema([toys({ definitions: { boolean: {} } })])).toThrow('the config schema declares the definition boolean twice');
  });

  it("refuses a section that is none of its declaration's kinds", () => {
    expect(() => assembleConfigSchema([toys({ kinds: ['games'] })])).toThrow("the config section toys is none of its declaration's kinds (games)");
  });
});

describe('printing the config types', () => {
  it('refuses a keyword it does not know rather than print a type that may be wrong', () => {
    const odd = toys({ sections: { toys: { schema: { description: 'Toys by name.', type: 'object', patternProperties: { '^t': { type: 'string' } } } } } });
    expect(() => printConfigTypes(assembleConfigSchema([odd]), configKinds([odd]), '')).toThrow('#/properties/toys: the type printer knows no patternProperties');
  });
});
