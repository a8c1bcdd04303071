// loadConfig and validateConfig: environment selection, merging, interpolation into typed
// values, defaults, the digest, positions of the loaded values, and every error at once.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveInstanceOrigin } from '../../src/api/url.js';
import { loadConfig, validateConfig } from '../../src/config/load.js';

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
