// loadConfig and validateConfig: environment selection, merging, interpolation into typed
// values, defaults, the digest, positions of the loaded values, and every error at once.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveInstanceOrigin } from '../../src/api/url.js';
import { MAX_FILE_BYTES } from '../../src/config/bytes.js';
import { loadConfig, validateConfig } from '../../src/app/config.js';

const temporary: string[] = [];
async function configDirectory(files: Record<string, string>): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-load-'));
  temporary.push(directory);
  for (const [name, text] of Object.entries(files)) await writeFile(join(directory, name), text);
  return directory;
}
afterEach(async () => {
  await Promise.all(temporary.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

const environments = `version: 1
environments:
  production:
    baseUrl: \${env.ACME_URL}
    tokenEnv: STEWARD_PRODUCTION_TOKEN
    variables:
      salesModelId: 5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30
      graceLimit: 750
      pauseDigest: false
  playground:
    baseUrl: https://acme-playground.example.com
    tokenEnv: STEWARD_PLAYGROUND_TOKEN
    variables:
      salesModelId: c7e2b4a1-9d3f-4a6b-8e1c-2f5d7a9b0c3e
      graceLimit: 10
      pauseDigest: true
`;
const kinds = `version: 1
userCreditLimits:
  - email: grace@acme.example
    creditLimit: \${var.graceLimit}
routines:
  - name: Weekly revenue digest
    prompt: "Revenue for \${var.salesModelId}; costs $\${budget}"
    schedule: "0 9 ? * MON *"
    timezone: Europe/Berlin
    modelId: \${var.salesModelId}
    paused: \${var.pauseDigest}
    destination:
      type: email
      recipientEmails: [ada@acme.example]
`;
const processEnv = { ACME_URL: 'https://acme.example.com' };

describe('loadConfig', () => {
  it('merges the files and resolves references into typed values for the chosen environment', async () => {
    const directory = await configDirectory({ 'environments.yaml': environments, 'kinds.yaml': kinds });
    const result = await loadConfig(directory, { environment: 'production', processEnv });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const { loaded } = result;
    expect(loaded.environmentName).toBe('production');
    expect(loaded.environment.baseUrl).toBe('https://acme.example.com');
    expect(loaded.files).toEqual([join(directory, 'environments.yaml'), join(directory, 'kinds.yaml')]);
    expect(loaded.config.userCreditLimits).toEqual([{ email: 'grace@acme.example', creditLimit: 750 }]);
    expect(loaded.config.routines?.[0]).toEqual({
      name: 'Weekly revenue digest',
      prompt: 'Revenue for 5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30; costs ${budget}',
      schedule: '0 9 ? * MON *',
      timezone: 'Europe/Berlin',
      modelId: '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30',
      paused: false,
      destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] },
    });
    expect(result.diagnostics).toEqual([]);
  });

  it('uses the other environment’s variables when it is chosen', async () => {
    const directory = await configDirectory({ 'environments.yaml': environments, 'kinds.yaml': kinds });
    const result = await loadConfig(directory, { environment: 'playground', processEnv });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.loaded.config.userCreditLimits?.[0]?.creditLimit).toBe(10);
    expect(result.loaded.config.routines?.[0]?.paused).toBe(true);
  });

  it('locates loaded values in the file that declared them', async () => {
    const directory = await configDirectory({ 'environments.yaml': environments, 'kinds.yaml': kinds });
    const result = await loadConfig(directory, { environment: 'production', processEnv });
    if (!result.ok) throw new Error('invalid');
    expect(result.loaded.locate(['routines', 0, 'schedule'])).toEqual({ file: expect.stringMatching(/kinds\.yaml$/), line: 8, col: 15 });
    expect(result.loaded.locate(['environments', 'playground', 'tokenEnv'])).toEqual({ file: expect.stringMatching(/environments\.yaml$/), line: 12, col: 15 });
    expect(result.loaded.locate(['routines', 0, 'branchId'])).toEqual({ file: expect.stringMatching(/kinds\.yaml$/), line: 6, col: 5 });
  });

  it('requires a choice when several environments are declared', async () => {
    const directory = await configDirectory({ 'environments.yaml': environments, 'kinds.yaml': kinds });
    const result = await loadConfig(directory, { processEnv });
    expect(result).toEqual({
      ok: false,
      diagnostics: [
        {
          severity: 'error',
          code: 'environment.required',
          summary: 'choose an environment: this configuration declares `production` and `playground`',
          hint: 'pass --env production or --env playground',
        },
      ],
      environments: ['production', 'playground'],
    });
  });

  it('selects the only environment of a single file', async () => {
    const result = await loadConfig('examples/single/steward.yaml', { processEnv: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.loaded.environmentName).toBe('production');
    expect(result.loaded.files).toHaveLength(1);
  });

  it('returns warnings with a valid configuration', async () => {
    const result = await loadConfig('test/fixtures/047-protect-names-renamed-or-undeclared-label', { processEnv: {} });
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['protect.renamedLabel', 'protect.undeclaredLabel']);
  });

  it('returns every error, in file, line and column order', async () => {
    const result = await loadConfig('test/fixtures/066-every-error-in-one-run', { processEnv: {} });
    expect(result.ok).toBe(false);
    const order = result.diagnostics.map((diagnostic) => `${diagnostic.location?.file.split('/').pop()}:${diagnostic.location?.line}:${diagnostic.location?.col}`);
    expect(order).toEqual([
      'environments.yaml:6:24',
      'environments.yaml:10:21',
      'routines.yaml:5:15',
      'routines.yaml:6:15',
      'routines.yaml:7:14',
      'routines.yaml:11:27',
      'routines.yaml:13:11',
      'routines.yaml:14:5',
    ]);
  });

  it('reports a missing path and an empty directory', async () => {
    const missing = await loadConfig('no/such/steward.yaml');
    expect(missing.ok ? [] : missing.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['config.notFound']);
    const empty = await loadConfig(await configDirectory({ 'README.md': '# nothing here\n' }));
    expect(empty.ok ? [] : empty.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['config.empty']);
  });
});

describe('the digest', () => {
  it('depends on file names and contents only, not on where the configuration lives', async () => {
    const first = await configDirectory({ 'environments.yaml': environments, 'kinds.yaml': kinds });
    const second = await configDirectory({ 'environments.yaml': environments, 'kinds.yaml': kinds });
    const renamed = await configDirectory({ 'environments.yaml': environments, 'routines.yaml': kinds });
    const edited = await configDirectory({ 'environments.yaml': environments, 'kinds.yaml': kinds.replace('0 9 ?', '0 10 ?') });
    const digest = async (directory: string) => {
      const result = await loadConfig(directory, { environment: 'production', processEnv });
      if (!result.ok) throw new Error('invalid');
      return result.loaded.digest;
    };
    const base = await digest(first);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(await digest(second)).toBe(base);
    expect(await digest(renamed)).not.toBe(base);
    expect(await digest(edited)).not.toBe(base);
  });
});

describe('validateConfig', () => {
  it('checks references against every environment, or only the one asked for', async () => {
    const path = 'test/fixtures/059-variable-missing-in-one-environment';
    expect((await validateConfig(path, { processEnv: {} })).map((diagnostic) => diagnostic.summary)).toEqual([
      'variable `marketingModelId` is not defined in environment `playground`',
    ]);
    expect(await validateConfig(path, { environment: 'production', processEnv: {} })).toEqual([]);
  });

  it('does not require an environment choice', async () => {
    expect(await validateConfig('examples/gitops', { processEnv: {} })).toEqual([]);
  });

  it.each([
    'https://acme.example.com',
    'https://acme.example.com/api/',
    'http://localhost:4010',
    'http://127.0.0.1:4010/api',
    'http://[::1]:4010',
    'http://10.0.0.5',
    'http://acme.example.com',
    'http://192.168.1.20:8080/api',
    'ftp://acme.example.com',
    'https://acme.example.com/dashboards',
  ])('accepts %s exactly when the HTTP client would connect to it', async (baseUrl) => {
    const directory = await configDirectory({
      'steward.yaml': `version: 1\nenvironments:\n  production:\n    baseUrl: "${baseUrl}"\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n`,
    });
    let clientAccepts = true;
    try {
      resolveInstanceOrigin(baseUrl);
    } catch {
      clientAccepts = false;
    }
    const codes = (await validateConfig(directory, { processEnv: {} })).map((diagnostic) => diagnostic.code);
    expect(codes).toEqual(clientAccepts ? [] : ['environment.baseUrl']);
  });
});

describe('keys named like JavaScript built-ins', () => {
  const header = 'version: 1\nenvironments:\n  production:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n';

  it('are unknown keys, not keys that belong in another section', async () => {
    const directory = await configDirectory({ 'steward.yaml': `${header}creditControls:\n  constructor: 5\n  toString: 1\n` });
    const diagnostics = await validateConfig(directory, { processEnv: {} });
    expect(diagnostics.map((diagnostic) => [diagnostic.summary, diagnostic.hint])).toEqual([
      ['unknown key `constructor` in `creditControls`', 'allowed keys: `downgradeCredits`, `shutoffCredits`, `userDefaultCredits` and `entityGroupDefaultCredits`'],
      ['unknown key `toString` in `creditControls`', 'allowed keys: `downgradeCredits`, `shutoffCredits`, `userDefaultCredits` and `entityGroupDefaultCredits`'],
    ]);
  });

  it('are variables and environments like any other name', async () => {
    const directory = await configDirectory({
      'steward.yaml': 'version: 1\nenvironments:\n  constructor:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n    variables:\n      __proto__: 5\ncreditControls:\n  shutoffCredits: ${var.__proto__}\n',
    });
    const result = await loadConfig(directory, { processEnv: {} });
    expect(result.ok ? result.loaded.config.creditControls : result.diagnostics).toEqual({ shutoffCredits: 5 });
  });

  it('name an environment that exists', async () => {
    const directory = await configDirectory({ 'steward.yaml': 'version: 1\nenvironments:\n  __proto__:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n' });
    const codes = (await validateConfig(directory, { processEnv: {} })).map((diagnostic) => diagnostic.code);
    expect(codes).not.toContain('environments.missing');
  });
});

describe('what a configuration may hold', () => {
  const header = 'version: 1\nenvironments:\n  production:\n    baseUrl: https://acme.example.com\n    tokenEnv: STEWARD_PRODUCTION_TOKEN\n';

  it('refuses a file larger than MAX_FILE_BYTES before parsing it, at 1:1', async () => {
    const padding = `# ${'x'.repeat(1000)}\n`.repeat(Math.ceil(MAX_FILE_BYTES / 1000) + 10);
    const directory = await configDirectory({ 'steward.yaml': header + padding });
    const diagnostics = await validateConfig(directory, { processEnv: {} });
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.location?.line, diagnostic.location?.col])).toEqual([['config.tooLarge', 1, 1]]);
    expect(diagnostics[0]!.summary).toMatch(/^the file is 5\.\d MiB; configuration files are at most 5\.0 MiB$/);
  });

  it('counts the length of names and descriptions in characters, an emoji as one', async () => {
    const routine = (name: string) => `  - name: "${name}"\n    prompt: p\n    schedule: "0 9 ? * MON *"\n    timezone: UTC\n    model: Sales\n    destination: {type: email, recipientEmails: [ada@acme.example]}\n`;
    const directory = await configDirectory({
      'steward.yaml': `${header}routines:\n${routine('🚀'.repeat(255))}${routine('🚀'.repeat(256))}labels:\n  - name: "${'😀'.repeat(13)}"\n    description: "${'😀'.repeat(500)}"\n  - name: "${'😀'.repeat(26)}"\n  - name: "😀"\n`,
    });
    const diagnostics = await validateConfig(directory, { processEnv: {} });
    expect(diagnostics.map((diagnostic) => [diagnostic.location?.line, diagnostic.summary])).toEqual([
      [13, 'routine name is 256 characters long; the limit is 255'],
      [22, `label name \`${'😀'.repeat(26)}\` is 26 characters long; names are 2 to 25 characters`],
      [23, 'label name `😀` is 1 character long; names are 2 to 25 characters'],
    ]);
  });

  it('merges keys from an anchor (`<<: *name`), the entry’s own keys winning', async () => {
    const directory = await configDirectory({
      'steward.yaml': `${header}userCreditLimits:\n  - &analyst\n    email: ada@acme.example\n    creditLimit: 50\n  - <<: *analyst\n    email: linus@acme.example\n`,
    });
    const result = await loadConfig(directory, { processEnv: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.loaded.config.userCreditLimits).toEqual([
      { email: 'ada@acme.example', creditLimit: 50 },
      { email: 'linus@acme.example', creditLimit: 50 },
    ]);
  });

  it('keeps a prompt written as a YAML block, with its line breaks and indentation', async () => {
    const directory = await configDirectory({
      'steward.yaml': `${header}    variables:\n      model: 5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30\nroutines:\n  - name: Digest\n    prompt: |\n      Revenue by region.\n      \tOne line per region.\n    schedule: "0 8 ? * MON *"\n    timezone: UTC\n    modelId: \${var.model}\n    destination: {type: email, recipientEmails: [ada@acme.example]}\n`,
    });
    const result = await loadConfig(directory, { processEnv: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    expect(result.loaded.config.routines?.[0]?.prompt).toBe('Revenue by region.\n\tOne line per region.\n');
  });

  it('holds e-mails and uuids lower-cased, so letter case alone never makes a change', async () => {
    const directory = await configDirectory({
      'steward.yaml': `${header}userCreditLimits:\n  - email: Grace@ACME.example\n    creditLimit: 1\n  - userId: 7D1C3B2A-0000-4000-8000-00000000000A\n    creditLimit: 2\nroutines:\n  - name: Digest\n    owner: Ada@Acme.Example\n    prompt: Revenue.\n    schedule: "0 8 ? * MON *"\n    timezone: UTC\n    modelId: 5B0E7A52-6C1D-4F3A-9E2B-8D7C6B5A4F30\n    destination: {type: email, recipientEmails: [Linus@Acme.Example], userGroupIds: [3F2C9A1E-8B7D-4C6A-9E5F-1A2B3C4D5E6F]}\n`,
    });
    const result = await loadConfig(directory, { processEnv: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    const { config } = result.loaded;
    expect(config.userCreditLimits).toEqual([
      { email: 'grace@acme.example', creditLimit: 1 },
      { userId: '7d1c3b2a-0000-4000-8000-00000000000a', creditLimit: 2 },
    ]);
    expect(config.routines?.[0]).toMatchObject({
      owner: 'ada@acme.example',
      modelId: '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30',
      destination: { recipientEmails: ['linus@acme.example'], userGroupIds: ['3f2c9a1e-8b7d-4c6a-9e5f-1a2b3c4d5e6f'] },
    });
  });

  it('accepts every example configuration: the limits leave real configurations alone', async () => {
    for (const example of ['gitops', 'single']) {
      if (!existsSync(`examples/${example}`)) continue; // examples/ci holds workflows, not a configuration
      const errors = (await validateConfig(`examples/${example}`, { processEnv: {} })).filter((diagnostic) => diagnostic.severity === 'error');
      expect(errors).toEqual([]);
    }
  });

  it('names a configuration path that is a dangling symbolic link as one', async () => {
    const directory = await configDirectory({});
    await symlink(join(directory, 'gone.yaml'), join(directory, 'steward.yaml'));
    const [diagnostic] = await validateConfig(join(directory, 'steward.yaml'), { processEnv: {} });
    expect(diagnostic).toMatchObject({ code: 'config.danglingLink' });
    expect(diagnostic!.summary).toContain('is a symbolic link to');
    expect(diagnostic!.summary).toContain('which does not exist');
  });
});
