// `steward schema`: prints the JSON Schema of the configuration, the one steward validates with,
// for editors and other tools (`--plan`: the schema of the plan JSON, for policy engines). Also where a config file's `$schema` modeline should point so it
// resolves wherever the file lives: a schema beside it (written by `steward init`) or in a
// project-local install, never a path into one machine's global node_modules.
import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME, processIo, type CommandIo } from './context.js';

/** The schema file shipped in the package. */
export const SCHEMA_FILE = fileURLToPath(new URL('../../schemas/steward.schema.json', import.meta.url));

/** The plan's schema file shipped in the package (read here without src/engine/planSchema.ts, which loads ajv). */
export const PLAN_SCHEMA_FILE = fileURLToPath(new URL('../../schemas/plan.schema.json', import.meta.url));

/** The name `steward init` gives the copy of the schema beside a config. */
export const SCHEMA_COPY = 'steward.schema.json';

/** The schema's text, exactly as shipped. */
export function schemaText(): string {
  return readFileSync(SCHEMA_FILE, 'utf8');
}

/** The YAML language server modeline for a schema at `reference` (relative to the file). */
export function modeline(reference: string): string {
  return `# yaml-language-server: $schema=${reference}`;
}

/**
 * The `$schema` reference for a file written in `directory`, relative to it, or undefined when
 * no schema is reachable that the file's repository would also have elsewhere: the nearest
 * `steward.schema.json` in the directory or above it, else steward installed in a
 * `node_modules` there (a project dependency, the same path on every checkout).
 */
export function schemaReferenceFrom(directory: string): string | undefined {
  for (let current = directory; ; current = dirname(current)) {
    for (const candidate of [join(current, SCHEMA_COPY), join(current, 'node_modules', ...PACKAGE_NAME.split('/'), 'schemas', 'steward.schema.json')]) {
      if (existsSync(candidate)) {
        const path = relative(directory, candidate).split(sep).join('/');
        return path.startsWith('.') ? path : `./${path}`;
      }
    }
    if (dirname(current) === current) return undefined;
  }
}

/** Registers `steward schema`. */
export function registerSchema(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('schema')
    .description('print the JSON Schema of the configuration (for editors: npx --no-install steward schema > steward.schema.json)')
    .option('--plan', 'print the JSON Schema of the plan instead (plan --json, plan files), for policy engines')
    .action((options: { plan?: boolean }) => {
      io().stdout(options.plan ? readFileSync(PLAN_SCHEMA_FILE, 'utf8') : schemaText());
    });
}
