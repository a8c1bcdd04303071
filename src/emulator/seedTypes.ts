// The seed of the emulator as TypeScript types, read off its one declaration (seedSchema.ts): what
// a seed is once seedFile.ts has checked it. Fields with a default in the schema are optional here:
// the check does not fill them in (seed.ts does, as it converts).
import type { Static } from '../typedSchema.js';
import type { SEED_SCHEMA } from './seedSchema.js';

export type Seed = Static<typeof SEED_SCHEMA>;
export type SeedOrganization = Seed['organization'];
export type SeedUser = Seed['users'][number];
export type SeedGroup = NonNullable<Seed['groups']>[number];
export type SeedModel = NonNullable<Seed['models']>[number];
export type SeedDocument = NonNullable<Seed['documents']>[number];
export type SeedFolder = NonNullable<Seed['folders']>[number];
export type SeedLabel = NonNullable<Seed['labels']>[number];
export type SeedRoutine = NonNullable<Seed['routines']>[number];
export type SeedCreditControls = NonNullable<Seed['creditControls']>;
/** An organization key (with its `role`) or a personal or MCP token (without one). */
export type SeedApiToken = Seed['apiTokens'][number];
