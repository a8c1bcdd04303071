// `steward emulator`: the command starts the emulator, prints `listening on http://HOST:PORT`
// first, names the demo tokens (never a seed's token values), applies its knobs and stops
// cleanly when told to.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { emulatorOptionsFrom, parentExited, registerEmulator, runEmulatorCommand } from '../../src/cli/emulator.js';
import type { CommandIo } from '../../src/cli/context.js';
import { Api, aSeed, TOKENS } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'steward-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function sink() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    env: {},
    cwd: directory,
    isTTY: false,
  };
  return { io, lines: () => out.join('').split('\n').filter((line) => line !== ''), errors: () => err.join('') };
}

describe('runEmulatorCommand', () => {
  it('prints listening on http://HOST:PORT first, then the demo tokens', async () => {
    const output = sink();
    const emulator = await runEmulatorCommand({ port: '0' }, output.io);
    try {
      const lines = output.lines();
      expect(lines[0]).toBe(`listening on ${emulator.url}`);
      expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.slice(1)).toEqual([
        'dataset demo: Acme Analytics, 36 users',
        'demo tokens (well-known local values, not secrets):',
        '  demo-org-admin-token       organization key, ORG_ADMIN',
        '  demo-org-member-token      organization key, MEMBER',
        '  demo-ada-personal-token    personal token of ada@acme.example (ORG_ADMIN)',
        '  demo-grace-personal-token  personal token of grace@acme.example (MEMBER)',
        'to use it, in another terminal (STEWARD_PRODUCTION_TOKEN being the tokenEnv of your environment):',
        '  export STEWARD_PRODUCTION_TOKEN=demo-org-admin-token',
        `  npx --no-install steward plan --env production --base-url ${emulator.url}`,
        'profile vendor: the platform as the vendor documents it (--profile other answers most open points the other way)',
        `stats: GET ${emulator.url}/__emulator/stats, reset: POST ${emulator.url}/__emulator/reset`,
        'press Ctrl+C to stop',
      ]);
      expect((await new Api(emulator.url, TOKENS.orgAdmin).get('/api/v1/whoami')).status).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  it('names the tokens of a seed file without printing their values', async () => {
    const path = join(directory, 'seed.yaml');
    writeFileSync(path, stringify(aSeed()));
    const output = sink();
    const emulator = await runEmulatorCommand({ port: '0', data: path, state: join(directory, 'state.json') }, output.io);
    try {
      const text = output.lines().join('\n');
      expect(text).toContain(`seed ${path}: Tiny Co, 2 users`);
      expect(text).toContain('API tokens in the seed: "admin key" (organization token, ORG_ADMIN), "bob token" (personal token, MEMBER)');
      expect(text).toContain(`state file: ${join(directory, 'state.json')} (written on the first change)`);
      expect(text).not.toContain('tiny-org-admin');
      expect(text).not.toContain('tiny-bob-personal');
      expect(text).toContain(`  export STEWARD_PRODUCTION_TOKEN=… # the value of "admin key" in the seed\n  npx --no-install steward plan --env production --base-url ${emulator.url}`);
    } finally {
      await emulator.close();
    }
  });

  it('names the other profile and each of its answers that differs from the vendor profile', async () => {
    const output = sink();
    const emulator = await runEmulatorCommand({ port: '0', profile: 'other' }, output.io);
    try {
      const lines = output.lines();
      const start = lines.indexOf('profile other, answering differently from the vendor profile:');
      expect(start).toBeGreaterThan(0);
      expect(lines.slice(start + 1, start + 12)).toEqual([
        '  organization keys act for no user (whoami user {id: null, membershipId: null})',
        '  routine endpoints need userId with organization keys (400 without)',
        '  documents labels=a,b matches ANY of them',
        '  fixed 60 s rate-limit windows',
        '  429 without Retry-After',
        "  routine updates by PATCH (the generated client's) as well as PUT",
        '  undocumented request keys are ignored',
        "  credit controls carry entityGroupDefaultCredits (the generated client's field)",
        '  deleting a label in use takes it off its documents',
        '  models name= matches names containing it, in any case',
        '  no credit-usage endpoint (404), as on an instance without it',
      ]);
      expect(lines[start + 12]).toMatch(/^stats: /);
    } finally {
      await emulator.close();
    }
  });

  it('names only the answers that still differ when knobs override the profile', async () => {
    const output = sink();
    const emulator = await runEmulatorCommand(
      {
        port: '0', profile: 'other', orgKeyUser: 'creator', routinesRequireUserId: false, rateLimitWindow: 'sliding', retryAfter: true,
        routineUpdate: 'put', unknownKeys: 'refuse', entityGroupDefaultCredits: false, labelDeleteInUse: 'conflict', modelNameFilter: 'exact', creditUsage: true,
      },
      output.io,
    );
    try {
      const lines = output.lines();
      const start = lines.indexOf('profile other, answering differently from the vendor profile:');
      expect(lines.slice(start + 1, start + 3)).toEqual(['  documents labels=a,b matches ANY of them', expect.stringMatching(/^stats: /)]);
    } finally {
      await emulator.close();
    }
  });

  it('says when knobs set every answer of the other profile back to the vendor profile', async () => {
    const output = sink();
    const emulator = await runEmulatorCommand(
      {
        port: '0', profile: 'other', orgKeyUser: 'creator', routinesRequireUserId: false, documentLabelsFilter: 'all',
        rateLimitWindow: 'sliding', retryAfter: true, routineUpdate: 'put', unknownKeys: 'refuse', entityGroupDefaultCredits: false,
        labelDeleteInUse: 'conflict', modelNameFilter: 'exact', creditUsage: true,
      },
      output.io,
    );
    try {
      expect(output.lines()).toContain('profile other, with every answer set back to the vendor profile');
    } finally {
      await emulator.close();
    }
  });

  it('lists the knobs it applies', async () => {
    const output = sink();
    const emulator = await runEmulatorCommand(
      {
        port: '0', dataset: 'demo-playground', latency: '5', requestsPerMinute: '100', retryAfter: false, routineUpdate: 'patch',
        unknownKeys: 'ignore', entityGroupDefaultCredits: true, fault: ['write:3=500'],
      },
      output.io,
    );
    try {
      expect(output.lines()).toContain('profile vendor, except:');
      expect(output.lines()).toContain('  429 without Retry-After');
      expect(output.lines()).toContain("  routine updates by PATCH (the generated client's) as well as PUT");
      expect(output.lines()).toContain('  undocumented request keys are ignored');
      expect(output.lines()).toContain("  credit controls carry entityGroupDefaultCredits (the generated client's field)");
      expect(output.lines()).toContain('latency 5 ms, 100 requests/minute per token, faults: write:3=500');
      expect(output.lines()).toContain('  playground-org-admin-token       organization key, ORG_ADMIN');
    } finally {
      await emulator.close();
    }
  });
});

describe('emulatorOptionsFrom', () => {
  it('maps every option', () => {
    expect(
      emulatorOptionsFrom({
        host: '0.0.0.0', port: '8080', data: 'seed.yaml', latency: '25', requestsPerMinute: '60', retryAfter: false,
        routineUpdate: 'put', state: 'state.json', fault: ['write:1=reset', 'POST /api/v1/labels=500'],
      }),
    ).toEqual({
      host: '0.0.0.0', port: 8080, data: 'seed.yaml', latencyMs: 25, requestsPerMinute: 60, sendRetryAfter: false,
      routineUpdateMethod: 'put', statePath: 'state.json', faults: ['write:1=reset', 'POST /api/v1/labels=500'],
    });
    expect(emulatorOptionsFrom({})).toEqual({ host: '127.0.0.1', port: 4010 });
  });

  it('maps the profile and one flag per open point, leaving unset flags to the profile', () => {
    expect(
      emulatorOptionsFrom({
        profile: 'other', orgKeyUser: 'absent', routinesRequireUserId: false, documentLabelsFilter: 'all',
        rateLimitWindow: 'sliding', rateLimitWindowMs: '2000', labelDeleteInUse: 'conflict', documentIdentifiers: 'per-deployment',
        unknownKeys: 'refuse', entityGroupDefaultCredits: false, scimUserIds: 'user',
      }),
    ).toEqual({
      host: '127.0.0.1', port: 4010, profile: 'other', orgKeyUser: 'absent', routinesRequireUserId: false,
      documentLabelsFilter: 'all', rateLimitWindow: 'sliding', rateLimitWindowMs: 2000, labelDeleteInUse: 'conflict',
      documentIdentifiers: 'per-deployment', unknownKeys: 'refuse', entityGroupDefaultCredits: false, scimUserIds: 'user',
    });
    expect(emulatorOptionsFrom({ profile: 'other' })).toEqual({ host: '127.0.0.1', port: 4010, profile: 'other' });
  });

  it.each([
    [{ port: 'abc' }, '--port must be a whole number >= 0, got `abc`'],
    [{ port: '70000' }, '--port must be at most 65535, got `70000`'],
    [{ latency: '-5' }, '--latency must be a number of milliseconds >= 0, got `-5`'],
    [{ requestsPerMinute: '0' }, '--requests-per-minute must be a whole number >= 1, got `0`'],
    [{ routineUpdate: 'post' }, '--routine-update must be put or patch, got `post`'],
    [{ unknownKeys: 'drop' }, '--unknown-keys must be refuse or ignore, got `drop`'],
    [{ scimUserIds: 'email' }, '--scim-user-ids must be membership or user, got `email`'],
    [{ dataset: 'prod' }, '--dataset must be demo or demo-playground, got `prod`'],
    [{ dataset: 'demo', data: 'seed.yaml' }, 'give either --data FILE or --dataset NAME, not both'],
    [{ profile: 'strict' }, '--profile must be vendor or other, got `strict`'],
    [{ orgKeyUser: 'nobody' }, '--org-key-user must be one of creator, absent, null, null-fields, got `nobody`'],
    [{ documentLabelsFilter: 'some' }, '--document-labels-filter must be all or any, got `some`'],
    [{ rateLimitWindow: 'rolling' }, '--rate-limit-window must be sliding or fixed, got `rolling`'],
    [{ rateLimitWindowMs: '0' }, '--rate-limit-window-ms must be a whole number >= 1, got `0`'],
    [{ rateLimitWindowMs: '1.5' }, '--rate-limit-window-ms must be a whole number >= 1, got `1.5`'],
    [{ labelDeleteInUse: 'cascade' }, '--label-delete-in-use must be conflict or unlink, got `cascade`'],
    [{ documentIdentifiers: 'same' }, '--document-identifiers must be shared or per-deployment, got `same`'],
  ])('rejects %j', (raw, message) => {
    expect(() => emulatorOptionsFrom(raw)).toThrow(message);
  });
});

describe('the lines to use it', () => {
  it("name the playground's variable for the playground dataset", async () => {
    const output = sink();
    const emulator = await runEmulatorCommand({ port: '0', dataset: 'demo-playground' }, output.io);
    try {
      expect(output.lines()).toContain('  export STEWARD_PLAYGROUND_TOKEN=playground-org-admin-token');
      expect(output.lines()).toContain(`  npx --no-install steward plan --env playground --base-url ${emulator.url}`);
    } finally {
      await emulator.close();
    }
  });
});

describe('parentExited', () => {
  it('resolves once the parent process id changes (npx stopped: the emulator was orphaned), not before', async () => {
    let parent = 4242;
    const watch = parentExited(5, () => parent);
    let said: string | undefined;
    void watch.exited.then((words) => (said = words));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(said).toBeUndefined();
    parent = 1;
    await expect.poll(() => said, { timeout: 1000 }).toBe('the process that started it, 4242, exited');
  });
});

describe('the registered command', () => {
  it('runs until the stop signal, then closes the server', async () => {
    const output = sink();
    let stop!: (signal: string) => void;
    const program = new Command('steward').exitOverride();
    registerEmulator(program, { io: () => output.io, waitForStop: () => new Promise((resolve) => (stop = resolve)) });
    const running = program.parseAsync(['node', 'steward', 'emulator', '--port', '0', '--fault', 'write:1=500']);
    await expect.poll(() => output.lines().length, { timeout: 5000 }).toBeGreaterThan(0);
    const url = /^listening on (http:\/\/\S+)$/.exec(output.lines()[0]!)![1]!;
    const api = new Api(url, TOKENS.orgAdmin);
    expect((await api.post('/api/v1/labels', { name: 'boom' })).status).toBe(500);
    stop('SIGTERM');
    await running;
    expect(output.errors()).toBe('emulator stopped (SIGTERM)\n');
    await expect(fetch(`${url}/api/v1/whoami`)).rejects.toThrow();
  });

  it('takes --profile other and per-knob flags from the command line', async () => {
    const output = sink();
    let stop!: (signal: string) => void;
    const program = new Command('steward').exitOverride();
    registerEmulator(program, { io: () => output.io, waitForStop: () => new Promise((resolve) => (stop = resolve)) });
    const running = program.parseAsync([
      'node', 'steward', 'emulator', '--port', '0', '--profile', 'other', '--org-key-user', 'null',
      '--no-routines-require-user-id', '--document-labels-filter', 'all', '--rate-limit-window', 'fixed',
      '--rate-limit-window-ms', '2000', '--label-delete-in-use', 'conflict', '--dataset', 'demo-playground',
      '--document-identifiers', 'per-deployment', '--unknown-keys', 'refuse', '--no-entity-group-default-credits', '--routine-update', 'put',
    ]);
    await expect.poll(() => output.lines().length, { timeout: 5000 }).toBeGreaterThan(0);
    const url = /^listening on (http:\/\/\S+)$/.exec(output.lines()[0]!)![1]!;
    const api = new Api(url, 'playground-org-admin-token');
    const whoami = await api.get('/api/v1/whoami');
    expect(whoami.body.user).toBeNull();
    // No user to act for and no userId required: the key's own routine list is empty.
    expect((await api.get('/api/v1/ai/routines')).body.records).toEqual([]);
    expect(output.lines()).toContain('  fixed 2 s rate-limit windows');
    expect(output.lines()).not.toContain('  documents labels=a,b matches ANY of them');
    expect(output.lines()).toContain('  demo-playground documents have identifiers of their own');
    // The vendor's answers, given back to profile other one flag at a time: no phrase for them.
    expect(output.lines()).not.toContain('  undocumented request keys are ignored');
    expect(output.lines().filter((line) => /entityGroupDefaultCredits|routine updates/.test(line))).toEqual([]);
    expect((await api.get('/api/v1/labels', { sort: 'name' })).body).toMatchObject({ status: 400, detail: "Bad Request: formErrors: Unrecognized key(s) in object: 'sort'" });
    const board = await new Api(url, 'playground-org-admin-token').get('/api/v1/documents', { labels: 'legacy-kpis' });
    expect(board.body.records.map((document: { identifier: string }) => document.identifier)).toEqual(['06f7e8d9']);
    stop('SIGINT');
    await running;
  });

  it('refuses an unknown profile before starting', async () => {
    const output = sink();
    const program = new Command('steward').exitOverride().configureOutput({ writeErr: (text) => output.io.stderr(text) });
    registerEmulator(program, { io: () => output.io, waitForStop: () => Promise.resolve('SIGINT') });
    await expect(program.parseAsync(['node', 'steward', 'emulator', '--port', '0', '--profile', 'strict'])).rejects.toThrow(
      /argument 'strict' is invalid/,
    );
    expect(output.lines()).toEqual([]);
  });

  it('reports a bad seed as an error instead of starting', async () => {
    const output = sink();
    const program = new Command('steward').exitOverride();
    registerEmulator(program, { io: () => output.io, waitForStop: () => Promise.resolve('SIGINT') });
    const previous = process.exitCode;
    await program.parseAsync(['node', 'steward', 'emulator', '--port', '0', '--data', join(directory, 'missing.yaml')]);
    expect(process.exitCode).toBe(1);
    process.exitCode = previous;
    expect(output.errors()).toBe(`Error: seed file ${join(directory, 'missing.yaml')} does not exist\n`);
    expect(output.lines()).toEqual([]);
  });
});
