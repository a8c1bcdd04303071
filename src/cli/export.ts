// `steward export`: write the live state of an environment as configuration YAML, so a team can
// adopt steward on an existing instance. The YAML goes to stdout (or --out); messages to stderr.
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { StewardError } from '../errors.js';
import { exportKinds, exportLive } from '../export/exporter.js';
import { baseUrlOf, configPath, connect, loadForEnvironment, processIo, reportError, sameTarget, STEWARD_VERSION, type CommandIo, type ConnectionOptions } from './context.js';
import { connectionOptions } from './plan.js';
import { SCHEMA_COPY, schemaReferenceFrom } from './schema.js';

export interface ExportOptions extends ConnectionOptions {
  kind?: string[];
  owner?: string[];
  out?: string;
}

/** Runs `steward export`; returns 0, or 1 after printing the error. */
export async function runExport(options: ExportOptions, io: CommandIo): Promise<number> {
  try {
    const kinds = exportKinds(options.kind);
    const loaded = await loadForEnvironment(io, options);
    const out = options.out === undefined ? undefined : resolve(io.cwd, options.out);
    const { client, api } = connect(io, loaded, options);
    // The modeline resolves from where the YAML lands (for stdout: beside the config), or is left out.
    const destination = out === undefined ? configDirectory(configPath(options.config, io.cwd)) : dirname(out);
    const schema = schemaReferenceFrom(destination);
    let result;
    try {
      result = await exportLive({
        api,
        kinds,
        owners: options.owner ?? [],
        config: loaded.config,
        environment: { name: loaded.environmentName, baseUrl: baseUrlOf(loaded, options), variables: loaded.environment.variables ?? {} },
        schema,
        stewardVersion: STEWARD_VERSION,
        now: new Date(),
      });
    } finally {
      await client.close();
    }
    for (const warning of result.warnings) io.stderr(`Warning: ${warning}\n`);
    const note = schema === undefined
      ? `Note: no steward.schema.json in ${destination} or above it, so the YAML has no $schema line for editors; add one with: npx --no-install steward schema > ${join(destination, SCHEMA_COPY)}\n`
      : '';
    const requests = client.stats().requests;
    if (out === undefined) {
      io.stdout(result.yaml);
      io.stderr(`${note}Exported ${kinds.join(', ')} of ${loaded.environmentName} with ${requests} API request${requests === 1 ? '' : 's'}.\n`);
      return 0;
    }
    await writeAtomically(out, io.redact === undefined ? result.yaml : io.redact(result.yaml)).catch((error: NodeJS.ErrnoException) => {
      const reason = error.code === 'ENOENT' ? `the directory ${dirname(out)} does not exist` : error.message;
      throw new StewardError('export.write', `cannot write ${options.out}: ${reason}`, 'user');
    });
    io.stderr(
      `${note}Exported ${kinds.join(', ')} of ${loaded.environmentName} to ${options.out} with ${requests} API request${requests === 1 ? '' : 's'}.\n` +
        `Put it beside your environments file and check it: steward plan --env ${loaded.environmentName}${sameTarget(options)} (no changes expected).\n`,
    );
    return 0;
  } catch (error) {
    return reportError(io, error, false);
  }
}

/** Writes through a temporary file, so a half-written export is never left behind. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

function configDirectory(path: string): string {
  try {
    return statSync(path).isDirectory() ? path : dirname(path);
  } catch {
    return dirname(path);
  }
}

/** Registers `steward export`. */
export function registerExport(program: Command, io: () => CommandIo = processIo): void {
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  connectionOptions(program.command('export'))
    .description('write the live state of an environment as configuration YAML (to adopt an existing instance)')
    .option('-k, --kind <kind>', 'export only this kind (repeatable; default: every kind)', collect)
    .option('--owner <email>', "also export this user's routines, with `owner:` (repeatable; needs an organization key)", collect)
    .option('-o, --out <file>', 'write the YAML to FILE instead of stdout')
    .action(async (options: ExportOptions) => {
      process.exitCode = await runExport(options, io());
    });
}
