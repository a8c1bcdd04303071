// `steward init [DIR]`: the first minute of a new user. Writes a steward.yaml that validates, the
// JSON Schema beside it with a modeline that resolves there (so editors complete and check the
// config in any repository, not only this one), and a .gitignore that keeps plan files out of
// git. Environments come from --env NAME=URL, or are asked for on a terminal.
import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { analyzeConfig } from '../app/config.js';
import { StewardError } from '../errors.js';
import { processIo, reportError, type CommandIo } from './context.js';
import { modeline, SCHEMA_COPY, schemaText } from './schema.js';

export interface InitOptions {
  /** `NAME=URL`, repeatable. */
  env?: string[];
  force?: boolean;
}

export interface InitEnvironment {
  name: string;
  baseUrl: string;
  tokenEnv: string;
}

const ENVIRONMENT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Plan files describe live state at one moment; they are made fresh for every change. */
const IGNORED = ['plan.json', '*.plan.json', 'promotion.json'];

/** Runs `steward init`; returns the exit code. */
export async function runInit(dir: string | undefined, options: InitOptions, io: CommandIo): Promise<number> {
  try {
    const directory = resolve(io.cwd, dir ?? '.');
    const configFile = join(directory, 'steward.yaml');
    if (existsSync(configFile) && !options.force) {
      throw new StewardError('init.exists', `${shown(io, configFile)} already exists; init leaves it alone`, 'user', { hint: 'pass --force to replace it' });
    }
    const environments = options.env !== undefined && options.env.length > 0 ? options.env.map(parseEnvironment) : await askForEnvironments(io);
    const names = new Set<string>();
    for (const environment of environments) {
      if (names.has(environment.name)) throw new StewardError('init.env', `--env ${environment.name} is given twice`, 'user');
      names.add(environment.name);
    }
    await mkdir(directory, { recursive: true });
    await writeFile(configFile, configText(environments));
    await writeFile(join(directory, SCHEMA_COPY), schemaText());
    const ignore = await updateGitignore(join(directory, '.gitignore'));

    // What init wrote must validate: a check here rather than a promise in a comment.
    const analysis = await analyzeConfig(configFile, { processEnv: {}, selectionRequired: false, cwd: io.cwd });
    const errors = analysis.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    if (errors.length > 0) throw new StewardError('init.invalid', `the configuration written to ${shown(io, configFile)} is not valid: ${errors[0]!.summary}`, 'user');

    const where = shown(io, directory);
    const config = dir === undefined || resolve(io.cwd, 'steward') === directory ? '' : ` --config ${where}`;
    const first = environments[0]!;
    const envOption = environments.length > 1 ? ` --env ${first.name}` : '';
    io.stdout(
      `Wrote ${shown(io, configFile)} and ${shown(io, join(directory, SCHEMA_COPY))} (editors find it through the modeline on the first line); ` +
        `${ignore === 'kept' ? 'kept' : ignore} ${shown(io, join(directory, '.gitignore'))}${ignore === 'kept' ? ', which already ignores plan files' : ' to keep plan files out of git'}.\n\n` +
        'Next:\n' +
        `  npx --no-install steward validate${config}\n` +
        `  export ${first.tokenEnv}=…   # an API key of ${first.name}; in CI, from a secret\n` +
        `  npx --no-install steward plan${config}${envOption}\n`,
    );
    return 0;
  } catch (error) {
    return reportError(io, error, false);
  }
}

/** `NAME=URL` → an environment whose token variable is STEWARD_<NAME>_TOKEN. */
export function parseEnvironment(spec: string): InitEnvironment {
  const equals = spec.indexOf('=');
  const name = equals === -1 ? spec : spec.slice(0, equals);
  const baseUrl = equals === -1 ? '' : spec.slice(equals + 1);
  const found = environmentProblem(name, baseUrl);
  if (found !== undefined) throw new StewardError('init.env', `--env ${spec}: ${found.problem}`, 'user', found.hint === undefined ? {} : { hint: found.hint });
  return environmentOf(name, baseUrl);
}

function environmentOf(name: string, baseUrl: string): InitEnvironment {
  return { name, baseUrl: baseUrl.replace(/\/+$/, ''), tokenEnv: tokenVariable(name) };
}

/** What is wrong with an environment's name and instance address, if anything. */
function environmentProblem(name: string, baseUrl: string): { problem: string; hint?: string } | undefined {
  if (!ENVIRONMENT_NAME.test(name)) {
    return { problem: 'the environment name must start with a letter and hold only letters, digits, _ and -', hint: '--env production=https://acme.example.com' };
  }
  if (baseUrl === '') return { problem: "give the instance's address after =", hint: `--env ${name}=https://acme.example.com` };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { problem: `${JSON.stringify(baseUrl)} is not a URL`, hint: `--env ${name}=https://acme.example.com` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'the address must start with https://' };
  return undefined;
}

/** The variable that holds an environment's API token: STEWARD_PRODUCTION_TOKEN for production. */
export function tokenVariable(name: string): string {
  return `STEWARD_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_TOKEN`;
}

async function askForEnvironments(io: CommandIo): Promise<InitEnvironment[]> {
  if (io.ask === undefined) {
    throw new StewardError('init.needs-environment', 'init needs at least one environment, and there is no terminal to ask on', 'user', {
      hint: 'pass --env NAME=URL (repeatable), e.g. --env production=https://acme.example.com',
    });
  }
  const environments: InitEnvironment[] = [];
  for (;;) {
    const first = environments.length === 0;
    const answer = (await io.ask(first ? 'Environment name [production]: ' : 'Another environment (Enter when done): ')).trim();
    const name = answer === '' && first ? 'production' : answer;
    if (name === '') return environments;
    const baseUrl = (await io.ask(`Address of ${name}'s instance (e.g. https://acme.example.com): `)).trim();
    const found = environmentProblem(name, baseUrl);
    if (found === undefined) environments.push(environmentOf(name, baseUrl));
    else io.stderr(`${found.problem}; try again.\n`);
  }
}

/** The scaffolded configuration: environments, and what can be managed, commented out. */
export function configText(environments: readonly InitEnvironment[]): string {
  const declared = environments
    .map((environment) => [
      `  ${environment.name}:`,
      `    baseUrl: ${environment.baseUrl}`,
      '    # The variable that holds the API token (an organization key with the Organization Admin',
      '    # role to manage credit controls and user limits). Never the token itself.',
      `    tokenEnv: ${environment.tokenEnv}`,
    ].join('\n'))
    .join('\n');
  return `${modeline(`./${SCHEMA_COPY}`)}
# steward configuration. Only what is declared here is managed; everything else is left alone.
# Check it with \`npx --no-install steward validate\`, see what would change with \`npx --no-install steward plan\`.
version: 1

environments:
${declared}

# Every kind steward manages, commented out: uncomment what this config should manage.
# Each is explained in steward's docs/configuration.md and docs/kinds/.

# Organization-wide AI credit controls (absent = not managed, null = off or unlimited):
# creditControls:
#   downgradeCredits: 8000
#   shutoffCredits: 10000
#   userDefaultCredits: 200

# Per-user credit limits, by e-mail (a number, null for unlimited, or default):
# userCreditLimits:
#   - email: ada@acme.example
#     creditLimit: 500

# Per-group credit limits, by SCIM group display name (each member gets the group's limit):
# userGroupCreditLimits:
#   - group: Finance
#     creditLimit: 1500

# Embedded analytics credit limits, by embed entity name:
# entityGroupCreditLimits:
#   - entity: embed-partners
#     creditLimit: 2500

# AI routines: a prompt run on a schedule against a shared model (by name), its output mailed
# or posted to Slack. Schedules are six-field cron: minute hour day-of-month month day-of-week year.
# routines:
#   - name: Weekly revenue digest
#     prompt: Summarise last week's revenue by region and call out anomalies.
#     schedule: "0 8 ? * MON *"
#     timezone: Europe/Berlin
#     model: Sales
#     destination:
#       type: email
#       recipientEmails: [ada@acme.example]
#     paused: true

# Labels, by name, and the documents (by identifier) and folders (by path) that carry them:
# labels:
#   - name: finance
#     color: "#0366d6"
#     documents: ["5e4d3c2b"]
#     folders: [finance]

# Delete or reset what the config does not declare (default: never; plan shows each as a - step):
# prune:
#   userCreditLimits: true
#   userGroupCreditLimits: true
#   entityGroupCreditLimits: true
#   routines: true
#   labels: true

# Rules every plan must pass; apply refuses a plan that breaks one (see steward's docs/policies.md):
# policies:
#   maxDestroy: 5
#   creditLimits:
#     max: 20000
#     allowUnlimited: false
#   routines:
#     recipientDomains: [acme.example]
`;
}

/** Adds the plan-file patterns a .gitignore lacks; says whether it was created or updated. */
async function updateGitignore(file: string): Promise<'created' | 'updated' | 'kept'> {
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const lines = new Set((existing ?? '').split(/\r?\n/).map((line) => line.trim()));
  const missing = IGNORED.filter((pattern) => !lines.has(pattern));
  if (missing.length === 0) return 'kept';
  const block = `# steward plan files: they describe the live state at one moment and are made fresh for each change\n${missing.join('\n')}\n`;
  const separator = existing === undefined || existing === '' ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  await writeFile(file, `${existing ?? ''}${separator}${block}`);
  return existing === undefined ? 'created' : 'updated';
}

function shown(io: CommandIo, path: string): string {
  const relativePath = relative(io.cwd, path);
  return relativePath === '' ? '.' : relativePath.startsWith('..') ? path : relativePath;
}

/** Registers `steward init`. */
export function registerInit(program: Command, io: () => CommandIo = processIo): void {
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  program
    .command('init')
    .description('start a configuration: steward.yaml, its JSON Schema for editors, and a .gitignore for plan files')
    .argument('[dir]', 'where to write them (default: the current directory)')
    .option('-e, --env <name=url>', 'an environment and its instance address, e.g. production=https://acme.example.com (repeatable; asked for on a terminal)', collect)
    .option('--force', 'replace an existing steward.yaml')
    .action(async (dir: string | undefined, options: InitOptions) => {
      process.exitCode = await runInit(dir, options, io());
    });
}
