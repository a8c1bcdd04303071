// `steward init` and `steward schema`: a scaffold that validates, a schema beside it that its
// modeline resolves to, a .gitignore for plan files, environments from flags or a terminal.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInit, tokenVariable } from '../../src/cli/init.js';
import { SCHEMA_FILE, schemaReferenceFrom } from '../../src/cli/schema.js';
import { runValidate } from '../../src/cli/validate.js';
import { loadConfig } from '../../src/app/config.js';
import { PRUNABLE_KINDS } from '../../src/config/types.js';
import { buildProgram } from '../../src/cli/program.js';
import { captureIo } from '../e2e/helpers.js';
import { REGISTRY } from '../../src/kinds/registry.js';

const directories: string[] = [];
async function emptyDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-init-'));
  directories.push(directory);
  return directory;
}
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

/** The template with its commented-out YAML uncommented (prose comments stay comments). */
function uncommented(template: string): string {
  return template
    .split('\n')
    .map((line) => (/^# (\s+\S|[a-zA-Z]+:)/.test(line) ? line.slice(2) : line))
    .join('\n');
}

describe('steward init', () => {
  it("shows every kind, prune: and policies: in comments, and they validate once uncommented", async () => {
    const cwd = await emptyDirectory();
    expect(await runInit(undefined, { env: ['production=https://acme.example.com'] }, captureIo({}, cwd))).toBe(0);
    const template = await readFile(join(cwd, 'steward.yaml'), 'utf8');
    await writeFile(join(cwd, 'steward.yaml'), uncommented(template));
    const io = captureIo({}, cwd);
    const code = await runValidate(undefined, {}, io);
    expect(code, io.result(code).err).toBe(0);
    const loaded = await loadConfig(join(cwd, 'steward.yaml'), { environment: 'production', processEnv: {} });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
    const { config } = loaded.loaded;
    for (const kind of REGISTRY.values()) expect(kind.declared(config), kind.kind).toBe(true);
    expect(Object.keys(config.prune ?? {}).sort()).toEqual([...PRUNABLE_KINDS].sort());
    expect(config.policies).toHaveProperty('maxDestroy');
  });

  it('writes a config that validates, its schema beside it, and a .gitignore for plan files', async () => {
    const cwd = await emptyDirectory();
    const io = captureIo({}, cwd);
    const code = await runInit(undefined, { env: ['production=https://acme.example.com', 'playground=https://acme-playground.example.com/'] }, io);
    const { out, err } = io.result(code);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe(
      'Wrote steward.yaml and steward.schema.json (editors find it through the modeline on the first line); created .gitignore to keep plan files out of git.\n\n' +
        'Next:\n  npx --no-install steward validate\n  export STEWARD_PRODUCTION_TOKEN=…   # an API key of production; in CI, from a secret\n  npx --no-install steward plan --env production\n',
    );
    const config = await readFile(join(cwd, 'steward.yaml'), 'utf8');
    const [first] = config.split('\n');
    expect(first).toBe('# yaml-language-server: $schema=./steward.schema.json');
    expect(resolve(cwd, './steward.schema.json')).toBe(join(cwd, 'steward.schema.json'));
    expect(await readFile(join(cwd, 'steward.schema.json'), 'utf8')).toBe(await readFile(SCHEMA_FILE, 'utf8'));
    expect(await readFile(join(cwd, '.gitignore'), 'utf8')).toContain('\nplan.json\n*.plan.json\npromotion.json\n');

    const loaded = await loadConfig(join(cwd, 'steward.yaml'), { environment: 'playground', processEnv: {} });
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
    expect(loaded.loaded.config.environments).toEqual({
      production: { baseUrl: 'https://acme.example.com', tokenEnv: 'STEWARD_PRODUCTION_TOKEN' },
      playground: { baseUrl: 'https://acme-playground.example.com', tokenEnv: 'STEWARD_PLAYGROUND_TOKEN' },
    });
    const validated = captureIo({}, cwd);
    expect(await runValidate(undefined, {}, validated)).toBe(0);
  });

  it('writes into DIR, tells how to reach it, and keeps what a .gitignore already has', async () => {
    const cwd = await emptyDirectory();
    await writeFile(join(cwd, '.gitignore'), 'node_modules\nplan.json');
    const io = captureIo({}, cwd);
    expect(await runInit('config/steward', { env: ['prod=https://acme.example.com'] }, io)).toBe(0);
    expect(io.result(0).out).toContain('npx --no-install steward validate --config config/steward\n');
    expect(existsSync(join(cwd, 'config/steward/steward.schema.json'))).toBe(true);
    const again = captureIo({}, cwd);
    expect(await runInit('steward', { env: ['prod=https://acme.example.com'] }, again)).toBe(0);
    // ./steward/ is found without --config.
    expect(again.result(0).out).toContain('  npx --no-install steward validate\n');
    await writeFile(join(cwd, 'steward/.gitignore'), 'node_modules\nplan.json');
    expect(await runInit('steward', { env: ['prod=https://acme.example.com'], force: true }, captureIo({}, cwd))).toBe(0);
    expect(await readFile(join(cwd, 'steward/.gitignore'), 'utf8')).toBe(
      'node_modules\nplan.json\n\n# steward plan files: they describe the live state at one moment and are made fresh for each change\n*.plan.json\npromotion.json\n',
    );
  });

  it('leaves an existing steward.yaml alone unless --force', async () => {
    const cwd = await emptyDirectory();
    await writeFile(join(cwd, 'steward.yaml'), 'version: 1\n');
    const io = captureIo({}, cwd);
    expect(await runInit(undefined, { env: ['production=https://acme.example.com'] }, io)).toBe(1);
    expect(io.result(1).err).toBe('Error: steward.yaml already exists; init leaves it alone\nHint: pass --force to replace it\n');
    expect(await readFile(join(cwd, 'steward.yaml'), 'utf8')).toBe('version: 1\n');
  });

  it.each([
    ['production', '--env production: give the instance\'s address after ='],
    ['9lives=https://acme.example.com', '--env 9lives=https://acme.example.com: the environment name must start with a letter'],
    ['production=acme.example.com', '--env production=acme.example.com: "acme.example.com" is not a URL'],
    ['production=ftp://acme.example.com', '--env production=ftp://acme.example.com: the address must start with https://'],
  ])('refuses --env %s', async (spec, message) => {
    const cwd = await emptyDirectory();
    const io = captureIo({}, cwd);
    expect(await runInit(undefined, { env: [spec] }, io)).toBe(1);
    expect(io.result(1).err).toContain(message);
    expect(existsSync(join(cwd, 'steward.yaml'))).toBe(false);
  });

  it('asks for the environments on a terminal, again after a wrong answer', async () => {
    const cwd = await emptyDirectory();
    const answers = ['', 'acme.example.com', 'production', 'https://acme.example.com', 'staging', 'https://staging.acme.example.com', ''];
    const questions: string[] = [];
    const io = { ...captureIo({}, cwd), ask: async (question: string) => (questions.push(question), answers.shift() ?? '') };
    expect(await runInit(undefined, {}, io)).toBe(0);
    expect(questions).toEqual([
      'Environment name [production]: ',
      "Address of production's instance (e.g. https://acme.example.com): ",
      'Environment name [production]: ',
      "Address of production's instance (e.g. https://acme.example.com): ",
      'Another environment (Enter when done): ',
      "Address of staging's instance (e.g. https://acme.example.com): ",
      'Another environment (Enter when done): ',
    ]);
    expect(io.result(0).err).toBe('"acme.example.com" is not a URL; try again.\n');
    const text = await readFile(join(cwd, 'steward.yaml'), 'utf8');
    expect(text).toContain('  staging:\n    baseUrl: https://staging.acme.example.com\n');
  });

  it('needs --env without a terminal', async () => {
    const io = captureIo({}, await emptyDirectory());
    expect(await runInit(undefined, {}, io)).toBe(1);
    expect(io.result(1).err).toBe(
      'Error: init needs at least one environment, and there is no terminal to ask on\nHint: pass --env NAME=URL (repeatable), e.g. --env production=https://acme.example.com\n',
    );
  });

  it('names token variables after the environment', () => {
    expect(tokenVariable('production')).toBe('STEWARD_PRODUCTION_TOKEN');
    expect(tokenVariable('eu-west_2')).toBe('STEWARD_EU_WEST_2_TOKEN');
  });
});

describe('steward schema', () => {
  it('prints the schema steward validates with', async () => {
    const io = captureIo({}, process.cwd());
    const program = buildProgram(() => io);
    await program.parseAsync(['node', 'steward', 'schema']);
    expect(io.result(0).out).toBe(await readFile(SCHEMA_FILE, 'utf8'));
    expect(JSON.parse(io.result(0).out)).toHaveProperty('$schema');
  });

  it('is found for a modeline beside the file or above it, else not at all', async () => {
    const root = await emptyDirectory();
    expect(schemaReferenceFrom(join(root, 'a', 'b'))).toBeUndefined();
    await writeFile(join(root, 'steward.schema.json'), '{}');
    expect(schemaReferenceFrom(join(root, 'a', 'b'))).toBe('../../steward.schema.json');
    expect(schemaReferenceFrom(root)).toBe('./steward.schema.json');
    expect(dirname(SCHEMA_FILE).endsWith('schemas')).toBe(true);
  });

  it('is found in steward installed as a project dependency, under its scoped package name', async () => {
    const root = await emptyDirectory();
    await mkdir(join(root, 'node_modules', '@steward-cli', 'steward', 'schemas'), { recursive: true });
    await writeFile(join(root, 'node_modules', '@steward-cli', 'steward', 'schemas', 'steward.schema.json'), '{}');
    expect(schemaReferenceFrom(join(root, 'environments'))).toBe('../node_modules/@steward-cli/steward/schemas/steward.schema.json');
  });
});
