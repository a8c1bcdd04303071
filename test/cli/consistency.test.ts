// The CLI behaves the same way across commands: --config everywhere a config is read, one rule
// for finding the config, a wrong --env named as such, a --target that names nothing refused,
// and colour as FORCE_COLOR and NO_COLOR ask.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configPath, useColor, type CommandIo } from '../../src/cli/context.js';
import { buildProgram } from '../../src/cli/program.js';
import { runValidate } from '../../src/cli/validate.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { captureIo, copyExample, Steward } from '../e2e/helpers.js';

const ENVIRONMENT = 'version: 1\nenvironments:\n  production:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n';

const ROUTINE_CONFIG = `${ENVIRONMENT}routines:
  - name: Daily check
    prompt: Check the pipeline.
    schedule: "0 9 ? * MON-FRI *"
    timezone: UTC
    modelId: 5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30
    destination:
      type: email
      recipientEmails: [ada@acme.example]
`;

const directories: string[] = [];
async function directoryWith(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-cli-'));
  directories.push(directory);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(directory, path, '..'), { recursive: true });
    await writeFile(join(directory, path), text);
  }
  return directory;
}
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

describe('--config', () => {
  it('is an option of every command that reads a config', () => {
    const readers = ['validate', 'plan', 'apply', 'drift', 'export', 'diff'];
    for (const name of readers) {
      const command = buildProgram().commands.find((candidate) => candidate.name() === name);
      expect(command?.options.map((option) => option.long), name).toContain('--config');
    }
  });

  it('and the positional path of validate say the same; two different ones are refused', async () => {
    const directory = await directoryWith({ 'config/steward.yaml': ENVIRONMENT });
    const byOption = captureIo({}, directory);
    expect(await runValidate(undefined, { config: 'config' }, byOption)).toBe(0);
    expect(byOption.result(0).out).toBe('The configuration at config is valid (1 file; environment production).\n');
    const both = captureIo({}, directory);
    expect(await runValidate('config', { config: 'other' }, both)).toBe(1);
    expect(both.result(1).err).toBe('Error: validate was given two configs: config and --config other\nHint: pass one of them\n');
  });
});

describe('finding the config', () => {
  it('takes ./steward.yaml first, else the ./steward/ directory', async () => {
    const both = await directoryWith({ 'steward.yaml': ENVIRONMENT, 'steward/environments.yaml': ENVIRONMENT });
    expect(configPath(undefined, both)).toBe(join(both, 'steward.yaml'));
    const gitops = await directoryWith({ 'steward/environments.yaml': ENVIRONMENT, 'mkdocs.yml': 'site_name: docs\n' });
    expect(configPath(undefined, gitops)).toBe(join(gitops, 'steward'));
    const io = captureIo({}, gitops);
    expect(await runValidate(undefined, {}, io)).toBe(0);
    expect(io.result(0).out).toBe('The configuration at steward is valid (1 file; environment production).\n');
  });

  it('never reads the YAML of the working directory unasked, and says how to point at a config', async () => {
    const root = await directoryWith({ 'mkdocs.yml': 'site_name: docs\n', 'environments.yaml': ENVIRONMENT });
    const io = captureIo({}, root);
    expect(await runValidate(undefined, {}, io)).toBe(1);
    expect(io.result(1).err).toBe(
      `Error: no configuration here: neither ./steward.yaml nor a ./steward/ directory exists in ${root}\n` +
        'Hint: pass --config PATH (a file, or a directory of *.yaml files; --config . for this directory), or create one with `npx --no-install steward init`\n',
    );
    const json = captureIo({}, root);
    expect(await runValidate(undefined, { json: true }, json)).toBe(1);
    expect(JSON.parse(json.result(1).out)).toMatchObject({ error: { code: 'config.not-found' } });
  });

  it('reads the working directory with --config .', async () => {
    const root = await directoryWith({ 'environments.yaml': ENVIRONMENT, 'labels.yaml': 'version: 1\nlabels:\n  - name: finance\n' });
    const io = captureIo({}, root);
    expect(await runValidate(undefined, { config: '.' }, io)).toBe(0);
    expect(io.result(0).out).toBe('The configuration at . is valid (2 files; environment production).\n');
  });
});

describe('commands against an instance', () => {
  let emulator: RunningEmulator;
  let steward: Steward;
  beforeAll(async () => {
    emulator = await startEmulator({ dataset: 'demo' });
    steward = new Steward(emulator, await copyExample('gitops'));
    directories.push(steward.directory);
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('say that a wrong --env names no environment, list the declared ones, and read nothing', async () => {
    const before = emulator.stats().requests;
    const result = await steward.plan({ env: 'prod' });
    expect(result.code).toBe(1);
    expect(result.err).toBe('Error: unknown environment `prod`; this configuration declares `production` and `playground`\nHint: did you mean `production`?\n');
    expect(result.err).not.toContain('not valid');
    expect(emulator.stats().requests).toBe(before);
  });

  it('refuse a --target that names nothing, with a did-you-mean', async () => {
    const result = await steward.plan({ target: ['routines/Weekly revenue digets'] });
    expect(result.code).toBe(1);
    // The example prunes routines, so a name it does not declare may still be a live routine to delete: checked once read.
    expect(result.err).toBe(
      'Error: --target routines/Weekly revenue digets: names nothing: the configuration does not declare it, and the instance has no such routine for prune to delete\n' +
        'Hint: did you mean `--target routines/Weekly revenue digest`?\n',
    );
  });

  it('refuse, before any request, a name in a kind the config does not prune', async () => {
    const single = new Steward(emulator, await directoryWith({ 'steward.yaml': ROUTINE_CONFIG }), 'production');
    const before = emulator.stats().requests;
    const planned = await single.plan({ target: ['routines/Daily chek'] });
    expect(planned.err).toBe('Error: --target routines/Daily chek: the configuration declares no routine "Daily chek"\nHint: did you mean `--target routines/Daily check`?\n');
    const applied = await single.apply(undefined, { exclude: ['routines/No such routine'] });
    expect(applied.code).toBe(1);
    expect(applied.err).toBe('Error: --exclude routines/No such routine: the configuration declares no routine "No such routine"\nHint: it declares "Daily check"\n');
    expect(emulator.stats().requests).toBe(before);
  });

  it('refuse a --target of a pruned kind that is neither declared nor live', async () => {
    const result = await steward.plan({ target: ['labels/never-existed'] });
    expect(result.code).toBe(1);
    expect(result.err).toContain('--target labels/never-existed: names nothing: the configuration does not declare it, and the instance has no such label for prune to delete');
  });
});

describe('colour', () => {
  const io = (env: Record<string, string>, isTTY: boolean): CommandIo => ({ ...captureIo(env, '/'), isTTY });

  it.each([
    [{}, true, undefined, true],
    [{}, false, undefined, false],
    [{ NO_COLOR: '1' }, true, undefined, false],
    [{ NO_COLOR: '' }, true, undefined, true],
    [{ FORCE_COLOR: '1' }, false, undefined, true],
    [{ FORCE_COLOR: '' }, false, undefined, true],
    [{ FORCE_COLOR: '3' }, false, undefined, true],
    [{ FORCE_COLOR: 'true' }, false, undefined, true],
    [{ FORCE_COLOR: '0' }, true, undefined, false],
    [{ FORCE_COLOR: 'false' }, true, undefined, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, undefined, true],
    [{ FORCE_COLOR: '1' }, true, false, false],
  ])('env %j, terminal %s, --no-color %s: colour %s', (env, isTTY, option, expected) => {
    expect(useColor(io(env, isTTY), option)).toBe(expected);
  });

  it('reaches the output: FORCE_COLOR colours diagnostics in a pipe', async () => {
    const forced = captureIo({ FORCE_COLOR: '1' }, process.cwd());
    await runValidate('test/fixtures/008-unknown-key-did-you-mean', {}, forced);
    expect(forced.result(1).err).toMatch(/\u001b\[/);
    const plain = captureIo({}, process.cwd());
    await runValidate('test/fixtures/008-unknown-key-did-you-mean', {}, plain);
    expect(plain.result(1).err).not.toMatch(/\u001b\[/);
  });
});

