// `steward export` against the emulator: the YAML it writes, and the promise that matters — put
// beside the environments file, it validates and plans to no changes, for every kind; against both
// emulator profiles. Where the organization key is tied to no user (other profile), it has no
// routines of its own: its creator's routines are exported like any owner's, with `owner:`.
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/app/config.js';
import { KINDS, type Kind } from '../../src/config/types.js';
import { Deployments, planDirectory, type EnvironmentName } from './deployments.js';
import { KEY_CREATOR, keyHasUser, PROFILES } from './helpers.js';

let deployments: Deployments;
afterEach(async () => {
  await deployments.close();
});

/** Exports, puts the file beside the environments, and checks it validates and plans nothing. */
async function expectRoundTrip(environment: EnvironmentName, options: { kind?: Kind[]; owner?: string[] } = {}): Promise<string> {
  const exported = await deployments.export(environment, options);
  expect(exported.err).not.toContain('Error');
  expect(exported.code).toBe(0);
  const directory = await deployments.besideEnvironments(exported.out);
  expect(await validateConfig(directory, { processEnv: {} })).toEqual([]);
  const plan = await planDirectory(deployments, directory, environment);
  expect(plan.err).toBe('');
  expect(plan.out).toContain('No changes. The live state matches the configuration.');
  expect(plan.code).toBe(0);
  return exported.out;
}

/** The export with what changes from run to run (time, port, temporary path) replaced. */
function stable(yaml: string, environment: EnvironmentName): string {
  return yaml
    .replace(/\$schema=\S+/, '$schema=SCHEMA')
    .replace(deployments.emulator(environment).url, 'http://emulator')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/, 'TIME');
}

describe.each(PROFILES)('steward export (%s profile)', (profile) => {
  beforeEach(async () => {
    deployments = await Deployments.start({ profile });
  });
  const own = keyHasUser({ profile });
  /** --owner for the routines of the key's creator and Grace: the creator needs naming only where the key has no user. */
  const owners = own ? ['grace@acme.example'] : [KEY_CREATOR, 'grace@acme.example'];
  /** The `owner:` line of the creator's routines: none where they are the key's own. */
  const creatorLine = own ? '' : `    owner: ${KEY_CREATOR}\n`;

  it('writes the live state as configuration: users by e-mail, models by name, every field, nothing server-managed', async () => {
    const exported = await deployments.export('production', { owner: owners });
    expect(exported.code).toBe(0);
    // No steward.schema.json beside the config (a temporary copy): no $schema line, and a note says how to add one.
    expect(exported.err).toMatch(/^Note: no steward.schema.json in \S+ or above it, so the YAML has no \$schema line for editors; add one with: npx --no-install steward schema > \S+steward.schema.json\nExported creditControls, userCreditLimits, userGroupCreditLimits, entityGroupCreditLimits, routines, labels, documentLabels, folderLabels of production with \d+ API requests\.\n$/);
    expect(stable(exported.out, 'production')).toBe(`# Exported by steward 0.1.0 from environment production (http://emulator) at TIME.
# It holds credit controls, individual user credit limits, user group credit limits, entity group
# credit limits, the routines of ada@acme.example, grace@acme.example, labels with the documents
# and folders that carry them.
#
# \`steward plan --env production\` with this file beside the environments shows no changes.
# Nothing is pruned: live objects this file does not list are left alone until you add
# \`prune:\` (and \`pruneDocuments: true\` or \`pruneFolders: true\` on labels) to make it the whole truth.
version: 1

creditControls:
  downgradeCredits: 8000
  shutoffCredits: 10000
  userDefaultCredits: 200
${profile === 'other' ? '  entityGroupDefaultCredits: null\n' : ''}
userCreditLimits:
  - email: analyst01@acme.example
    creditLimit: 50
  - email: grace@acme.example
    creditLimit: 500
  - email: ken@acme.example
    creditLimit: 100
  - email: linus@acme.example
    creditLimit: null

userGroupCreditLimits:
  - group: Analysts
    creditLimit: 100
  - group: Sales Ops
    creditLimit: 400

entityGroupCreditLimits:
  - entity: embed-partners
    creditLimit: 1000
  - entity: embed-trial
    creditLimit: 50

routines:
  - name: Daily pipeline check
${creatorLine}    description: null
    prompt: List deals that moved stage yesterday.
    schedule: "0 8 ? * MON-FRI *"
    timezone: America/New_York
    model: Sales
    branch: null
    topicName: pipeline
    destination:
      type: slack
      recipientId: C0PIPELINE1
      slackRecipientType: channel
  - name: Old experiment
${creatorLine}    description: null
    prompt: Compare campaign spend month over month.
    schedule: "0 6 1 * ? *"
    timezone: UTC
    model: Marketing
    branch: null
    topicName: campaigns
    destination:
      type: email
      recipientEmails: [ada@acme.example]
    paused: true
  - name: Weekly revenue digest
${creatorLine}    description: null
    prompt: Summarise last week's revenue by region and call out anomalies.
    schedule: "0 9 ? * MON *"
    timezone: Europe/Berlin
    model: Sales
    branch: null
    topicName: orders
    destination:
      type: email
      recipientEmails: [ada@acme.example, grace@acme.example]
  - name: Grace's weekly KPIs
    owner: grace@acme.example
    description: null
    prompt: Summarise this week's KPIs.
    schedule: "0 7 ? * FRI *"
    timezone: UTC
    model: Sales
    branch: null
    topicName: orders
    destination:
      type: email
      recipientEmails: [grace@acme.example]

labels:
  - name: draft
    color: null
    description: null
    verified: false
    homepage: false
    documents: ["1b2c3d4e"]
    folders: [sandbox]
  - name: finance
    color: "#0366d6"
    description: Finance-owned content
    verified: true
    homepage: true
    documents: ["8f2e1d4c", "9d8e7f60"]
    folders: [finance]
  - name: legacy-kpis
    color: "#6f42c1"
    description: KPIs shown to the board
    verified: false
    homepage: false
    documents: ["9d8e7f60"]
    folders: [finance/board-packs]
  - name: marketing
    color: "#d73a4a"
    description: null
    verified: false
    homepage: false
    documents: ["5e4d3c2b"]
    folders: []
  - name: obsolete
    color: "#cccccc"
    description: No longer used
    verified: false
    homepage: false
    documents: []
    folders: []
`);
  });

  it('writes the same file for both deployments, whose ids differ: only the header says where it came from', async () => {
    const production = await deployments.export('production', { owner: owners });
    const playground = await deployments.export('playground', { owner: owners });
    const body = (yaml: string) => yaml.slice(yaml.indexOf('version: 1'));
    expect(body(playground.out)).toBe(body(production.out));
    expect(playground.out).toContain('from environment playground');
  });

  it('reads with the fewest requests: list endpoints, the documents by whichever read costs fewer', async () => {
    await deployments.export('production');
    const { byRoute } = deployments.production.stats();
    // Four labels in use (draft, finance, legacy-kpis, marketing; not obsolete) would cost four
    // queries; one listing of every document with include=labels costs two pages.
    expect(byRoute['GET /api/v1/documents']).toBe(2);
    expect(byRoute['GET /api/v1/labels']).toBe(1);
    // The key's own routines; where it has none (other), those of the owners the config names (its
    // creator and Grace). SCIM: the users with a limit (4) and, where the owners are read, the
    // owners' e-mails are more than one name each time, so page 1 of the listing is read first,
    // and the demo's users all fit on it: one request.
    expect(byRoute['GET /api/v1/ai/routines']).toBe(own ? 1 : 2);
    expect(byRoute['GET /api/scim/v2/users']).toBe(1);
    expect(byRoute['GET /api/v1/ai/credit-controls/users']).toBe(1);
    // Group limits: one list each; the groups' names in one SCIM listing (a page of up to 100).
    expect(byRoute['GET /api/v1/ai/credit-controls/user-groups']).toBe(1);
    expect(byRoute['GET /api/scim/v2/groups']).toBe(1);
    expect(byRoute['GET /api/v1/ai/credit-controls/entity-groups']).toBe(1);
    expect(byRoute['GET /api/v1/ai/credit-controls']).toBe(1);
    expect(Object.keys(byRoute).filter((route) => route.includes('{'))).toEqual([]);
  });

  describe('round-trips to an empty plan', () => {
    for (const environment of ['production', 'playground'] as const) {
      for (const kind of KINDS) {
        it(`${kind} alone, from ${environment}`, async () => {
          const yaml = await expectRoundTrip(environment, { kind: [kind] });
          const sections = ['creditControls', 'userCreditLimits', 'userGroupCreditLimits', 'entityGroupCreditLimits', 'routines', 'labels'].filter((section) => yaml.includes(`\n${section}:\n`));
          expect(sections).toEqual([kind === 'documentLabels' || kind === 'folderLabels' ? 'labels' : kind]);
        });
      }
      it(`every kind together, with another user's routines, from ${environment}`, async () => {
        await expectRoundTrip(environment, { owner: owners });
      });
    }

    it('exports label names with their documents only, for documentLabels alone', async () => {
      const yaml = await expectRoundTrip('production', { kind: ['documentLabels'] });
      expect(yaml).toContain('  - name: finance\n    documents: ["8f2e1d4c", "9d8e7f60"]\n');
      expect(yaml).not.toContain('color:');
    });

    it('after the gitops example is applied', async () => {
      expect((await deployments.apply('production')).code).toBe(0);
      const yaml = await expectRoundTrip('production', { owner: owners });
      expect(yaml).toContain('  - name: board-kpis\n');
      expect(yaml).toContain(`  - name: Monthly marketing recap\n${creatorLine}    description: Campaign results for the marketing lead, first of the month.\n`);
      expect(yaml).toContain('  - email: margaret@acme.example\n    creditLimit: 300\n');
      expect(yaml).not.toContain('analyst01');
    });

    it('keeps live text that looks like a variable reference as text', async () => {
      const created = await deployments.call('production', 'POST', `/api/v1/ai/routines?userId=${deployments.production.state.userId(KEY_CREATOR)}`, {
        name: 'Template test',
        prompt: 'Explain what ${var.salesModelId} means here.',
        schedule: '0 9 ? * MON *',
        timezone: 'UTC',
        modelId: '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30',
        destination: { type: 'slack', recipientId: 'C0PIPELINE1', slackRecipientType: 'channel' },
      });
      expect(created.status).toBe(201);
      const yaml = await expectRoundTrip('production', { kind: ['routines'] });
      expect(yaml).toContain('prompt: Explain what $${var.salesModelId} means here.\n');
    });

    it('writes models by name, so the file plans in a deployment whose environment declares no model ids', async () => {
      const directory = await mkdtemp(join(tmpdir(), 'steward-no-variables-'));
      const environments = await readFile(join(deployments.gitops, 'environments.yaml'), 'utf8');
      await writeFile(join(directory, 'environments.yaml'), environments.replace(/\n\s+variables:(\n\s{6,}.*)*/g, ''));
      const exported = await deployments.export('production', { config: directory, kind: ['routines'], ...(own ? {} : { owner: [KEY_CREATOR] }) });
      expect(exported.code).toBe(0);
      expect(exported.err).not.toContain('Warning');
      expect(exported.out).toContain('  - name: Old experiment\n');
      expect(exported.out).toContain('    model: Marketing\n');
      expect(exported.out).not.toContain('modelId');
      await writeFile(join(directory, 'exported.yaml'), exported.out);
      const plan = await planDirectory(deployments, directory, 'production');
      expect(plan.code).toBe(0);
    });
  });

  it('exports data that reads like a credential as it is: a label described "Bearer bonds desk" round-trips unchanged', async () => {
    expect((await deployments.call('production', 'PUT', '/api/v1/labels/finance', { description: 'Bearer bonds desk' })).status).toBe(200);
    const exported = await expectRoundTrip('production', { kind: ['labels'] });
    expect(exported).toContain('description: Bearer bonds desk');
    expect(exported).not.toContain('[REDACTED]');
  });

  it('writes --out FILE, whose schema line points at the steward.schema.json beside it or above it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'steward-adopt-'));
    await copyFile(join(deployments.gitops, 'environments.yaml'), join(directory, 'environments.yaml'));
    await copyFile('schemas/steward.schema.json', join(directory, 'steward.schema.json'));
    const out = join(directory, 'exported.yaml');
    const result = await deployments.export('production', { out, kind: ['labels'] });
    expect(result.code).toBe(0);
    expect(result.out).toBe('');
    expect(result.err).toContain(`to ${out} with`);
    const text = await readFile(out, 'utf8');
    const schema = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text)?.[1];
    expect(schema).toBe('./steward.schema.json');
    expect(existsSync(resolve(dirname(out), schema!))).toBe(true);
    expect((await planDirectory(deployments, directory, 'production')).code).toBe(0);
  });

  describe('errors', () => {
    it('names an unknown kind, with a suggestion', async () => {
      const result = await deployments.export('production', { kind: ['routine'] });
      expect(result).toMatchObject({ code: 1, out: '' });
      expect(result.err).toBe(
        'Error: --kind routine: unknown kind\nHint: did you mean `routines`? kinds: creditControls, userCreditLimits, userGroupCreditLimits, entityGroupCreditLimits, routines, labels, documentLabels, folderLabels\n',
      );
    });

    it('says when --out cannot be written', async () => {
      const result = await deployments.export('production', { kind: ['labels'], out: join(deployments.gitops, 'missing', 'live.yaml') });
      expect(result.code).toBe(1);
      expect(result.err).toBe(`Error: cannot write ${join(deployments.gitops, 'missing', 'live.yaml')}: the directory ${join(deployments.gitops, 'missing')} does not exist\n`);
    });

    it('names an unknown environment', async () => {
      const result = await deployments.export('staging' as EnvironmentName);
      expect(result.code).toBe(1);
      expect(result.err).toContain('unknown environment `staging`; this configuration declares `production` and `playground`');
    });

    it('says which variable should hold the token, without reading anything', async () => {
      deployments.env = {};
      const result = await deployments.export('production');
      expect(result.code).toBe(1);
      expect(result.err).toContain('the environment variable STEWARD_PRODUCTION_TOKEN is not set; it holds the API token for environment "production"');
      expect(deployments.production.stats().requests).toBe(0);
    });

    it('says what the key cannot read before reading it', async () => {
      deployments.env = { STEWARD_PRODUCTION_TOKEN: 'demo-org-member-token' };
      const result = await deployments.export('production');
      expect(result.code).toBe(1);
      expect(result.err).toContain('creditControls, userCreditLimits, userGroupCreditLimits and entityGroupCreditLimits need an Organization Admin key; this key\'s organization role is MEMBER');
      const labelsOnly = await deployments.export('production', { kind: ['labels'] });
      expect(labelsOnly.code).toBe(0);
    });

    it('refuses --owner without routines, and an owner who is not a user', async () => {
      const withoutRoutines = await deployments.export('production', { kind: ['labels'], owner: ['grace@acme.example'] });
      expect(withoutRoutines.err).toContain('--owner selects whose routines are exported, but routines are not among the exported kinds');
      const unknown = await deployments.export('production', { kind: ['routines'], owner: ['nobody@acme.example'] });
      expect(unknown.code).toBe(1);
      expect(unknown.err).toContain('this e-mail address is not a user of the instance: nobody@acme.example');
    });

    it('refuses two live routines of one name, which a configuration cannot hold', async () => {
      const created = await deployments.call('production', 'POST', `/api/v1/ai/routines?userId=${deployments.production.state.userId(KEY_CREATOR)}`, {
        name: 'Old experiment',
        prompt: 'Again.',
        schedule: '0 9 ? * MON *',
        timezone: 'UTC',
        modelId: '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30',
        destination: { type: 'slack', recipientId: 'C0PIPELINE1', slackRecipientType: 'channel' },
      });
      expect(created.status).toBe(201);
      const result = await deployments.export('production', { kind: ['routines'] });
      expect(result.code).toBe(1);
      expect(result.err).toContain(`two live routines are named "Old experiment" (both owned by ${own ? 'the API key\'s user' : KEY_CREATOR})`);
    });
  });
});
