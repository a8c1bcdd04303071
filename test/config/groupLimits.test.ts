// Validation of the group credit-limit sections: the schema's shape (exactly one of group and
// userGroupId; entity required; limits as for users) and the semantic checks (each group or
// entity once, names that can match exactly), each finding at its file:line:col.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, validateConfig } from '../../src/app/config.js';

const ENVIRONMENTS = `version: 1
environments:
  production:
    baseUrl: https://acme.example.com
    tokenEnv: STEWARD_TOKEN
`;

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function findings(limits: string): Promise<string[]> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-group-config-'));
  directories.push(directory);
  await writeFile(join(directory, 'environments.yaml'), ENVIRONMENTS);
  await writeFile(join(directory, 'limits.yaml'), limits);
  const diagnostics = await validateConfig(directory, { processEnv: {} });
  return diagnostics.map((diagnostic) => `${diagnostic.location?.line}:${diagnostic.location?.col} ${diagnostic.code}: ${diagnostic.summary}`);
}

describe('user group and entity group credit limits in a configuration', () => {
  it('accepts groups by name or id and entities, with numbers, null, default and protect', async () => {
    expect(
      await findings(`version: 1
userGroupCreditLimits:
  - group: Finance
    creditLimit: 1500
  - userGroupId: fin7q2k
    creditLimit: null
    protect: true
  - group: Sales Ops
    creditLimit: default
entityGroupCreditLimits:
  - entity: embed-partners
    creditLimit: 2500
prune:
  userGroupCreditLimits: true
  entityGroupCreditLimits: true
`),
    ).toEqual([]);
  });

  it('loads a group id written as a uuid in lower case, like every uuid', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'steward-group-config-'));
    directories.push(directory);
    await writeFile(join(directory, 'steward.yaml'), `${ENVIRONMENTS}userGroupCreditLimits:\n  - userGroupId: 5D8C1A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5B\n    creditLimit: 1\n`);
    const result = await loadConfig(directory, { environment: 'production', processEnv: {} });
    expect(result.ok && result.loaded.config.userGroupCreditLimits).toEqual([{ userGroupId: '5d8c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', creditLimit: 1 }]);
  });

  it('reports a group named twice, a padded name, and an entity declared twice, each at its place', async () => {
    const found = await findings(`version: 1
userGroupCreditLimits:
  - group: Finance
    creditLimit: 1
  - group: Finance
    creditLimit: 2
  - group: " Sales Ops"
    creditLimit: 3
entityGroupCreditLimits:
  - entity: embed-partners
    creditLimit: 1
  - entity: embed-partners
    creditLimit: 2
`);
    // A name declared twice is an error at both places: either entry may be the one to remove.
    expect(found).toEqual([
      '3:12 userGroupCreditLimits.duplicate: user group `Finance` is declared again at limits.yaml:5:12',
      '5:12 userGroupCreditLimits.duplicate: user group `Finance` is declared twice; the first declaration is at limits.yaml:3:12',
      '7:12 userGroupCreditLimits.padded: user group " Sales Ops" has spaces before or after it',
      '10:13 entityGroupCreditLimits.duplicate: entity `embed-partners` is declared again at limits.yaml:12:13',
      '12:13 entityGroupCreditLimits.duplicate: entity `embed-partners` is declared twice; the first declaration is at limits.yaml:10:13',
    ]);
  });

  it('refuses an entry naming its group both ways or not at all, and an entry without an entity', async () => {
    const found = await findings(`version: 1
userGroupCreditLimits:
  - group: Finance
    userGroupId: fin7q2k
    creditLimit: 1
  - creditLimit: 2
entityGroupCreditLimits:
  - creditLimit: 3
`);
    expect(found.map((line) => line.split(': ')[0])).toEqual(['3:5 schema.value', '6:5 schema.value', '8:5 schema.required']);
    expect(found[0]).toContain('must name the group by exactly one of `group` and `userGroupId`');
  });
});
