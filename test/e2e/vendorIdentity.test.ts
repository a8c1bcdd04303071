// Identity as the vendor documents it: whoami names a user by two distinct ids, and the membership
// id is the one steward sends (limits, routine owners, `userId`). A whoami with custom role names,
// extra fields and permissions steward does not know plans normally; one without the membership id
// is a clear error naming the field; and an instance whose SCIM ids turn out to be user ids (the
// other answer to gaps.md's open point) stops the plan with a clear error, writing nothing.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPlan } from '../../src/cli/plan.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { json, startHostileServer, type HostileServer } from '../api/hostileServer.js';
import { labelRecord } from '../api/wire.js';
import { captureIo, copyExample, Steward } from './helpers.js';

const TOKEN = 'identity-e2e-token-Hq4ZpX0vLm2sTr8W';

let emulator: RunningEmulator | undefined;
let server: HostileServer | undefined;
afterEach(async () => {
  await emulator?.close();
  await server?.close();
  emulator = undefined;
  server = undefined;
});

async function labelsConfig(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-identity-'));
  await writeFile(
    join(directory, 'steward.yaml'),
    `version: 1
environments:
  production:
    baseUrl: https://acme.example.com
    tokenEnv: STEWARD_PRODUCTION_TOKEN
labels:
  - name: finance
`,
  );
  return directory;
}

async function planAgainst(whoami: unknown) {
  server = await startHostileServer({
    'GET /api/v1/whoami': json(200, whoami),
    'GET /api/v1/labels': json(200, { labels: [labelRecord('finance')] }),
  });
  const directory = await labelsConfig();
  const io = captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN }, directory);
  return io.result(await runPlan({ config: directory, baseUrl: server.url, detailedExitcode: true }, io));
}

describe('whoami as the vendor documents it', () => {
  it('plans normally with custom role names, extra fields and permissions steward does not know', async () => {
    const result = await planAgainst({
      keyScope: 'user',
      orgRole: 'ORG_ADMIN',
      rolesByModel: {
        '6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f': { baseRole: 'EDITOR', roleName: 'Revenue editors (custom)', connectionId: 'c-1', permissions: ['USE_AI', 'A_PERMISSION_FROM_NEXT_YEAR'] },
      },
      rolesByModelTruncated: false,
      user: { id: 'user-ada', membershipId: 'member-ada', email: 'ada@acme.example', locale: 'en' },
      organization: { id: 'org-1' },
    });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('No changes');
  });

  it('refuses a user without the membership id steward needs, naming the field', async () => {
    const result = await planAgainst({ keyScope: 'user', orgRole: 'ORG_ADMIN', rolesByModel: {}, user: { id: 'user-ada' } });
    expect(result.code).toBe(1);
    expect(result.err).toContain('GET /api/v1/whoami: user has no membershipId');
    expect(result.err).not.toContain(TOKEN);
  });
});

describe('membership ids, never user ids', () => {
  it('sends the membership id of every user and owner: the plan and apply of the gitops example converge', async () => {
    emulator = await startEmulator({ dataset: 'demo' });
    const steward = new Steward(emulator, await copyExample('gitops'));
    expect((await steward.apply()).code).toBe(0);
    const again = await steward.plan();
    expect(again.out).toContain('No changes');
    expect(again.code).toBe(0);
    // The emulator knows users only by membership id: a user id sent anywhere would have been a 404.
    expect(emulator.stats().byStatus['404']).toBeUndefined();
    expect(emulator.stats().byStatus['400']).toBeUndefined();
  });

  it('stops with a clear error, writing nothing, where SCIM lists users under their user ids', async () => {
    emulator = await startEmulator({ dataset: 'demo', scimUserIds: 'user' });
    const steward = new Steward(emulator, await copyExample('gitops'));
    const result = await steward.plan();
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/SCIM lists this API key's own user \(ada@acme\.example\) under id [0-9a-f-]{36}, which whoami gives as the user id; its membership id is [0-9a-f-]{36}/);
    expect(emulator.stats().writes).toBe(0);
  });
});
