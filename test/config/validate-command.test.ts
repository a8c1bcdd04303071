// `steward validate` as a function with injected output and environment: exit codes, human
// output, --json, GitHub Actions annotations, colour rules and the default path.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import type { CommandIo } from '../../src/cli/context.js';
import { runValidate } from '../../src/cli/validate.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

function capture(overrides: Partial<CommandIo> = {}) {
  const out = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    env: {},
    cwd: REPO,
    isTTY: false,
    ...overrides,
  };
  return { io, out };
}

const temporary: string[] = [];
async function configDirectory(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-validate-'));
  temporary.push(directory);
  for (const [name, text] of Object.entries(files)) await writeFile(join(directory, name), text);
  return directory;
}
afterEach(async () => {
  await Promise.all(temporary.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

const ENVIRONMENT = 'version: 1\nenvironments:\n  production:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n';

describe('steward validate', () => {
  it('exits 0 and says so for a valid configuration', async () => {
    const { io, out } = capture();
    expect(await runValidate('examples/gitops', {}, io)).toBe(0);
    expect(out).toEqual({ stdout: 'The configuration at examples/gitops is valid (5 files; environments production, playground).\n', stderr: '' });
  });

  it('exits 1 and prints every finding with its source line', async () => {
    const { io, out } = capture();
    expect(await runValidate('test/fixtures/008-unknown-key-did-you-mean', {}, io)).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      [
        'test/fixtures/008-unknown-key-did-you-mean/steward.yaml:10:3: error: unknown key `shutofCredits` in `creditControls`',
        ' 10 |   shutofCredits: 10000',
        '    |   ^^^^^^^^^^^^^',
        '  hint: did you mean `shutoffCredits`?',
        '',
        'The configuration at test/fixtures/008-unknown-key-did-you-mean is not valid: 1 error.',
        '',
      ].join('\n'),
    );
  });

  it('prints JSON for tools with --json, and nothing else', async () => {
    const { io, out } = capture({ env: { GITHUB_ACTIONS: 'true' } });
    expect(await runValidate('test/fixtures/031-downgrade-above-shutoff', { json: true }, io)).toBe(1);
    // The runner reads workflow commands from stderr too: stdout stays one JSON document.
    expect(out.stderr).toMatch(/^::error file=test\/fixtures\/031-downgrade-above-shutoff\/steward.yaml,line=9,col=21,title=steward creditControls.order::/);
    expect(JSON.parse(out.stdout)).toEqual({
      valid: false,
      errors: 1,
      warnings: 0,
      files: ['test/fixtures/031-downgrade-above-shutoff/steward.yaml'],
      environments: ['production'],
      diagnostics: [
        {
          severity: 'error',
          code: 'creditControls.order',
          message: '`downgradeCredits` (12000) must not exceed `shutoffCredits` (10000)',
          hint: 'AI downgrades to a cheaper model before it shuts off: lower downgradeCredits or raise shutoffCredits',
          file: 'test/fixtures/031-downgrade-above-shutoff/steward.yaml',
          line: 9,
          col: 21,
        },
      ],
    });
  });

  it('reports a valid configuration as JSON too', async () => {
    const { io, out } = capture();
    expect(await runValidate('examples/single', { json: true }, io)).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ valid: true, errors: 0, warnings: 0, environments: ['production'], diagnostics: [] });
  });

  it('writes GitHub Actions annotations when GITHUB_ACTIONS=true', async () => {
    const { io, out } = capture({ env: { GITHUB_ACTIONS: 'true' } });
    expect(await runValidate('test/fixtures/029-unknown-timezone', {}, io)).toBe(1);
    expect(out.stdout).toBe(
      '::error file=test/fixtures/029-unknown-timezone/steward.yaml,line=12,col=15,title=steward routine.timezone::unknown timezone `Europe/Berlinn`%0Adid you mean `Europe/Berlin`?\n',
    );
    expect(out.stderr).toContain('test/fixtures/029-unknown-timezone/steward.yaml:12:15: error: unknown timezone `Europe/Berlinn`');
  });

  it('exits 0 with warnings, and shows them', async () => {
    const { io, out } = capture();
    expect(await runValidate('test/fixtures/047-protect-names-renamed-or-undeclared-label', {}, io)).toBe(0);
    expect(out.stderr).toContain(': warning: environment `production` protects label `legacy-kpis`');
    expect(out.stdout).toBe('The configuration at test/fixtures/047-protect-names-renamed-or-undeclared-label is valid, with 2 warnings (1 file; environment production).\n');
  });

  it('checks one environment with --env, and rejects an unknown one', async () => {
    const checked = capture();
    expect(await runValidate('examples/gitops', { env: 'playground' }, checked.io)).toBe(0);
    expect(checked.out.stdout).toContain('environment playground)');
    const unknown = capture();
    expect(await runValidate('examples/gitops', { env: 'prod' }, unknown.io)).toBe(1);
    expect(unknown.out.stderr).toBe('Error: unknown environment `prod`; this configuration declares `production` and `playground`\nHint: did you mean `production`?\n');
  });

  it('colours on a terminal, but not with NO_COLOR or --no-color', async () => {
    const path = 'test/fixtures/008-unknown-key-did-you-mean';
    const terminal = capture({ isTTY: true });
    await runValidate(path, {}, terminal.io);
    expect(terminal.out.stderr).toMatch(/\u001b\[/);
    const noColor = capture({ isTTY: true, env: { NO_COLOR: '1' } });
    await runValidate(path, {}, noColor.io);
    expect(noColor.out.stderr).not.toMatch(/\u001b\[/);
    const flag = capture({ isTTY: true });
    await runValidate(path, { color: false }, flag.io);
    expect(flag.out.stderr).not.toMatch(/\u001b\[/);
  });

  it('defaults to ./steward.yaml when it exists', async () => {
    const directory = await configDirectory({ 'steward.yaml': ENVIRONMENT, 'notes.yaml': 'not: a steward file\n' });
    const { io, out } = capture({ cwd: directory });
    expect(await runValidate(undefined, {}, io)).toBe(0);
    expect(out.stdout).toBe('The configuration at steward.yaml is valid (1 file; environment production).\n');
  });

  it('reads the current directory only when asked with --config ., merging its files', async () => {
    const directory = await configDirectory({ 'environments.yaml': ENVIRONMENT, 'labels.yaml': 'version: 1\nlabels:\n  - name: finance\n  - name: Finance\n' });
    const { io, out } = capture({ cwd: directory });
    expect(await runValidate(undefined, { config: '.' }, io)).toBe(1);
    expect(out.stderr).toContain('labels.yaml:4:11: error: label `Finance` is declared twice (label names compare case-insensitively); the first declaration is at labels.yaml:3:11');
  });

  it('reports a path that does not exist', async () => {
    const { io, out } = capture();
    expect(await runValidate('no/such/config', {}, io)).toBe(1);
    expect(out.stderr).toContain('error: `no/such/config` does not exist');
  });

  it.each(['test/fixtures/050-literal-token-key', 'test/fixtures/051-token-instead-of-variable-name'])('never prints the literal token of %s', async (path) => {
    for (const options of [{}, { json: true }]) {
      const { io, out } = capture({ env: { GITHUB_ACTIONS: 'true' } });
      expect(await runValidate(path, options, io)).toBe(1);
      expect(out.stdout + out.stderr).toContain('secret.');
      expect(out.stdout + out.stderr).not.toContain('not-a-real-token');
    }
  });

  it('masks a secret on its line in the excerpt of every finding there, not only its own', async () => {
    const directory = await configDirectory({
      'variables.yaml': `${ENVIRONMENT}    variables: {apiToken: "sk-live-SECRET1", 9x: 1}\n`,
      'twice.yaml': `${ENVIRONMENT}    token: sk-live-SECRET5\n    token: sk-live-SECRET6\n`,
    });
    const texts: string[] = [];
    for (const file of ['variables.yaml', 'twice.yaml']) {
      for (const options of [{}, { json: true }]) {
        const { io, out } = capture({ env: { GITHUB_ACTIONS: 'true' } });
        expect(await runValidate(join(directory, file), options, io)).toBe(1);
        expect(out.stdout + out.stderr).toContain('secret.key');
        expect(out.stdout + out.stderr).not.toContain('SECRET');
        texts.push(out.stderr);
      }
    }
    expect(texts[0]).toContain(
      [
        'error: variable name `9x` must start with a letter or `_` and contain only letters, digits and `_`',
        ' 6 |     variables: {apiToken: <redacted>, 9x: 1}',
        '   |                                       ^^',
      ].join('\n'),
    );
    expect(texts[2]).toContain(['is declared twice in the same map; the first is at twice.yaml:6:5', ' 7 |     token: <redacted>'].join('\n'));
  });

  it('names the environment variable a value came from instead of printing the value', async () => {
    const directory = await configDirectory({
      'steward.yaml': [
        ENVIRONMENT,
        'routines:\n  - name: r1\n    prompt: p\n    schedule: "0 9 ? * MON *"\n    timezone: ${env.TZX}\n    model: Sales\n',
        '    destination: {type: slack, recipientId: "${env.SLACKID}", slackRecipientType: channel}\n',
      ].join(''),
    });
    const env = { SLACKID: 'xoxb-1234-SECRET', TZX: 'Mars/SECRET', GITHUB_ACTIONS: 'true' };
    for (const options of [{}, { json: true }]) {
      const { io, out } = capture({ env });
      expect(await runValidate(join(directory, 'steward.yaml'), options, io)).toBe(1);
      const printed = out.stdout + out.stderr;
      expect(printed).not.toContain('SECRET');
      expect(printed).toContain('the value of `${env.SLACKID}` is not a Slack channel id');
      expect(printed).toContain('unknown timezone in `${env.TZX}`');
    }
  });

  it('names the reference, not the value, of a variable named like a secret and of a piece of an environment variable', async () => {
    const directory = await configDirectory({
      'steward.yaml': [
        'version: 1\nenvironments:\n  production:\n    baseUrl: ${env.PROD_URL}\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n    variables: {slackToken: "${env.SLACK}"}\n',
        'routines:\n  - name: r1\n    prompt: p\n    schedule: "0 9 ? * MON *"\n    timezone: UTC\n    model: Sales\n',
        '    destination: {type: slack, recipientId: "${var.slackToken}", slackRecipientType: channel}\n',
      ].join(''),
    });
    const { io, out } = capture({ env: { PROD_URL: 'http://SECRET-host.example.com', SLACK: 'xoxb-SECRET' } });
    expect(await runValidate(join(directory, 'steward.yaml'), { json: true }, io)).toBe(1);
    expect(out.stdout).not.toContain('SECRET');
    expect(out.stdout).toContain('uses plain http:// for part of `${env.PROD_URL}`');
    expect(out.stdout).toContain('the value of `${env.SLACK}` is not a Slack channel id');
  });

  it('is registered on the program with its options', () => {
    const command = buildProgram().commands.find((candidate) => candidate.name() === 'validate');
    expect(command?.options.map((option) => option.long)).toEqual(['--config', '--env', '--json', '--strict', '--no-color']);
  });
});
