// steward plan (and apply) against a server we did not write, one misbehaviour at a time: whoami
// answers normally, then the listing misbehaves. Every case ends with exit 1 and one sentence
// naming the endpoint, within the configured request time limit, with nothing planned on the
// bad answer (so nothing to delete) and the token nowhere in the output.

import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply.js';
import { runPlan } from '../../src/cli/plan.js';
import { cutShort, json, neverAnswer, startHostileServer, type Behaviour, type HostileServer } from '../api/hostileServer.js';
import { creditControlsBody, labelRecord, LAST_PAGE, routineRecord, scimUser, whoamiBody } from '../api/wire.js';
import { captureIo, type Result } from './helpers.js';

const TOKEN = 'hostile-e2e-token-Zq8XvN3kLp0aTe9R';
const ADA = { id: 'user-ada', membershipId: 'member-ada' };

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A config managing only `labels.yaml`-style labels, or one routine of the key's own user. */
const CONFIGS = {
  labels: `
labels:
  - name: finance
    color: "#1a7f37"
`,
  routines: `
routines:
  - name: Weekly digest
    prompt: Summarise last week.
    schedule: "0 9 ? * MON *"
    timezone: Europe/Berlin
    modelId: 6f1c1c2e-8b1a-4c59-9a57-1a2b3c4d5e6f
    destination:
      type: email
      recipientEmails: [ada@acme.example]
`,
} as const;

async function configDirectory(kind: keyof typeof CONFIGS): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'steward-hostile-'));
  await writeFile(
    join(directory, 'steward.yaml'),
    `version: 1
environments:
  production:
    baseUrl: https://acme.example.com
    tokenEnv: STEWARD_PRODUCTION_TOKEN
    requestsPerMinute: 6000
${CONFIGS[kind]}`,
  );
  return directory;
}

/** whoami answers as a personal token of an Organization Admin; the rest is up to the case. */
function withWhoami(routes: Record<string, Behaviour>): Record<string, Behaviour> {
  return { 'GET /api/v1/whoami': json(200, whoamiBody({ keyScope: 'user', orgRole: 'ORG_ADMIN', user: ADA })), ...routes };
}

async function plan(kind: keyof typeof CONFIGS, routes: Record<string, Behaviour>): Promise<Result> {
  server = await startHostileServer(withWhoami(routes));
  const directory = await configDirectory(kind);
  const io = captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN }, directory);
  return io.result(await runPlan({ config: directory, baseUrl: server.url, requestTimeout: 0.6 }, io));
}

/** The one `Error:` line of a failed command. */
function errorLine(result: Result): string {
  const line = result.err.split('\n').find((one) => one.startsWith('Error: '));
  if (line === undefined) throw new Error(`no error line in:\n${result.err}`);
  return line;
}

function expectCleanFailure(result: Result): void {
  expect(result.code).toBe(1);
  expect(result.out).not.toMatch(/destroy|delete|- /i);
  expect(`${result.out}${result.err}`).not.toContain(TOKEN);
}

const routinePage = (records: unknown[], nextCursor: string | null, extra: Record<string, unknown> = {}) => ({
  records,
  pageInfo: { hasNextPage: nextCursor !== null, nextCursor, pageSize: 100, ...extra },
});

describe('steward plan against a hostile server', () => {
  it('a server that never answers: a clear error within the request time limit', async () => {
    const result = await plan('labels', { 'GET /api/v1/labels': neverAnswer() });
    expectCleanFailure(result);
    expect(errorLine(result)).toMatch(
      /^Error: listing labels: GET \/api\/v1\/labels: no complete response within \d+ ms \(.*the request's time limit of 600 ms is spent\)$/,
    );
    expect(server?.countOf('GET /api/v1/labels')).toBeLessThanOrEqual(4);
  });

  it('a body cut short: a sentence, not an undici code', async () => {
    const result = await plan('labels', { 'GET /api/v1/labels': cutShort({ labels: [labelRecord('finance'), labelRecord('ops')] }) });
    expectCleanFailure(result);
    expect(errorLine(result)).toMatch(/^Error: listing labels: GET \/api\/v1\/labels: the response body was cut short \(\d+ bytes were announced\)/);
    expect(result.err).not.toMatch(/UND_ERR/);
  });

  it('endless cursors: stops at the second page', async () => {
    const result = await plan('routines', {
      'GET /api/v1/ai/routines': (request, response) => json(200, routinePage([routineRecord(`r${request.count}`)], 'same'))(request, response),
    });
    expectCleanFailure(result);
    expect(errorLine(result)).toBe(
      'Error: listing routines: GET /api/v1/ai/routines: the server returned cursor "same" a second time (page 3); stopped to avoid an endless listing.',
    );
    expect(server?.countOf('GET /api/v1/ai/routines')).toBe(2);
  });

  it('the same records under fresh cursors: stops at the second page', async () => {
    const result = await plan('routines', {
      'GET /api/v1/ai/routines': (request, response) => json(200, routinePage([routineRecord('r1')], `c${request.count}`))(request, response),
    });
    expectCleanFailure(result);
    expect(errorLine(result)).toBe(
      'Error: listing routines: GET /api/v1/ai/routines: record "r1" came on page 2 again after page 1; stopped to avoid an endless listing.',
    );
    expect(server?.countOf('GET /api/v1/ai/routines')).toBe(2);
  });

  it('records past totalRecords: stops at the second page', async () => {
    const result = await plan('routines', {
      'GET /api/v1/ai/routines': (request, response) =>
        json(200, routinePage([routineRecord(`r${request.count}`)], `c${request.count}`, { totalRecords: 1 }))(request, response),
    });
    expectCleanFailure(result);
    expect(errorLine(result)).toMatch(/^Error: listing routines: GET \/api\/v1\/ai\/routines: page 2 brings the listing to 2 records, more than the 1/);
  });

  it('a list that is not a list', async () => {
    const result = await plan('labels', { 'GET /api/v1/labels': json(200, { labels: { finance: labelRecord('finance') } }) });
    expectCleanFailure(result);
    expect(errorLine(result)).toBe('Error: listing labels: GET /api/v1/labels: labels is an object, not a list');
  });

  it('a label listed twice under one name in two cases: refused, not collapsed into a rename', async () => {
    const result = await plan('labels', { 'GET /api/v1/labels': json(200, { labels: [labelRecord('finance'), labelRecord('FINANCE')] }) });
    expectCleanFailure(result);
    expect(errorLine(result)).toBe('Error: listing labels: GET /api/v1/labels: the label "finance" comes twice (also as "FINANCE"); label names are unique regardless of case');
  });

  it('a field of the wrong type', async () => {
    const result = await plan('routines', {
      'GET /api/v1/ai/routines': json(200, routinePage([{ ...routineRecord('r1'), disabled: 'false' }], null)),
    });
    expectCleanFailure(result);
    expect(errorLine(result)).toBe('Error: listing routines: GET /api/v1/ai/routines: record 1: disabled is a string, not a boolean');
  });

  it('routines without a name: nothing is planned, so nothing is deleted', async () => {
    const { name: _dropped, ...nameless } = routineRecord('r2');
    const result = await plan('routines', {
      'GET /api/v1/ai/routines': json(200, routinePage([routineRecord('r1', { name: 'Weekly digest' }), nameless, { ...nameless, id: 'r3' }], null)),
    });
    expectCleanFailure(result);
    expect(errorLine(result)).toBe('Error: listing routines: GET /api/v1/ai/routines: record 2 has no name');
  });

  it('a 401 after whoami: the server words, no retry', async () => {
    const result = await plan('labels', { 'GET /api/v1/labels': json(401, { detail: `Missing or invalid API key ${TOKEN}`, status: 401 }) });
    expectCleanFailure(result);
    expect(errorLine(result)).toBe('Error: listing labels: 401 Missing or invalid API key [REDACTED]');
    expect(server?.countOf('GET /api/v1/labels')).toBe(1);
  });
});

describe('a server whose limits name users by ids SCIM does not know (an open point)', () => {
  it('warns before anyone approves resetting them, naming the ids', async () => {
    server = await startHostileServer({
      'GET /api/v1/whoami': json(200, whoamiBody({ keyScope: 'organization', user: null })),
      'GET /api/v1/ai/credit-controls/users': json(200, { records: [{ userId: 'mem-grace', creditLimit: 400 }], pageInfo: LAST_PAGE }),
      'GET /api/scim/v2/users': (request, response) =>
        json(200, { Resources: request.query.get('filter')?.includes('mem-grace') ? [] : [scimUser('u-grace', { userName: 'grace@acme.example' })], totalResults: 1 })(request, response),
    });
    const directory = await configDirectory('labels');
    await writeFile(join(directory, 'steward.yaml'), (await readFile(join(directory, 'steward.yaml'), 'utf8')).replace(/\nlabels:[\s\S]*$/, '\nuserCreditLimits:\n  - email: grace@acme.example\n    creditLimit: 500\nprune:\n  userCreditLimits: true\n'));
    const io = captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN }, directory);
    const result = io.result(await runPlan({ config: directory, baseUrl: server.url, requestTimeout: 0.6 }, io));
    expect(result.code).toBe(0);
    expect(result.out).toContain("Warning: 1 live user credit limit belongs to user ids SCIM does not know (mem-grace), and pruning resets it. If they are users deleted since, that is right; if this instance's limits name users by other ids than SCIM's");
  });
});

describe('a notice on a terminal', () => {
  it('clears the status line before it is written, so the two never run together', async () => {
    server = await startHostileServer(
      withWhoami({
        'GET /api/v1/labels': (request, response) =>
          request.count === 1
            ? json(429, { detail: 'Too Many Requests', status: 429 }, { 'retry-after': '0' })(request, response)
            : json(200, { labels: [labelRecord('finance', { color: '#1a7f37' })] })(request, response),
      }),
    );
    const directory = await configDirectory('labels');
    const io = { ...captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN }, directory), isTTY: true };
    const result = io.result(await runPlan({ config: directory, baseUrl: server.url, requestTimeout: 0.6 }, io));
    expect(result.code).toBe(0);
    expect(result.err).toContain('\r\x1b[2Krate limited (429) on GET /api/v1/labels: waiting 0 ms before retry 1\n');
  });
});

describe('steward apply against a server with a quota', () => {
  it('a 429 naming a maximum is a final error, sent once', async () => {
    server = await startHostileServer(
      withWhoami({
        'GET /api/v1/labels': json(200, { labels: [] }),
        'POST /api/v1/labels': json(429, { detail: 'Organization has reached the maximum of 100 labels', status: 429 }),
      }),
    );
    const directory = await configDirectory('labels');
    const io = captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN }, directory);
    const result = io.result(await runApply(undefined, { config: directory, baseUrl: server.url, requestTimeout: 0.6, autoApprove: true }, io));
    expect(result.code).toBe(1);
    expect(`${result.out}${result.err}`).toContain('429 Organization has reached the maximum of 100 labels (a quota of the account, not a rate limit: not retried)');
    expect(`${result.out}${result.err}`).not.toContain(TOKEN);
    expect(server.countOf('POST /api/v1/labels')).toBe(1);
  });
});

describe('the request time limit from the environment', () => {
  async function planWithEnv(value: string): Promise<Result> {
    server = await startHostileServer(withWhoami({ 'GET /api/v1/labels': neverAnswer() }));
    const directory = await configDirectory('labels');
    const io = captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN, STEWARD_REQUEST_TIMEOUT: value }, directory);
    return io.result(await runPlan({ config: directory, baseUrl: server.url }, io));
  }

  it('takes STEWARD_REQUEST_TIMEOUT in seconds when --request-timeout is not given', async () => {
    const result = await planWithEnv('0.5');
    expect(result.code).toBe(1);
    expect(errorLine(result)).toMatch(/the request's time limit of 500 ms is spent\)$/);
  });

  it('refuses a value that is not a number of seconds', async () => {
    const result = await planWithEnv('two minutes');
    expect(result.code).toBe(1);
    expect(errorLine(result)).toBe('Error: STEWARD_REQUEST_TIMEOUT must be a number of seconds above 0, got "two minutes"');
    expect(server?.requests).toEqual([]);
  });
});

describe('whoami without a user', () => {
  it('a personal-looking answer with `user: {id: null}` is read as no user, not a crash', async () => {
    server = await startHostileServer({
      'GET /api/v1/whoami': json(200, whoamiBody({ keyScope: 'organization', user: { id: null, email: null, name: null } as never })),
      'GET /api/v1/labels': json(200, { labels: [labelRecord('finance', { color: '#1a7f37' })] }),
      'GET /api/v1/documents': json(200, { records: [], pageInfo: LAST_PAGE }),
    });
    const directory = await configDirectory('labels');
    const io = captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN }, directory);
    const result = io.result(await runPlan({ config: directory, baseUrl: server.url, requestTimeout: 0.6 }, io));
    expect(result.err).not.toMatch(/Cannot read properties/);
    expect(result.code).toBe(0);
  });
});

describe('steward apply against a server whose answer shows the write did not take', () => {
  async function apply(kind: keyof typeof CONFIGS, routes: Record<string, Behaviour>, extra = ''): Promise<Result> {
    server = await startHostileServer(withWhoami(routes));
    const directory = await configDirectory(kind);
    if (extra !== '') await writeFile(join(directory, 'extra.yaml'), `version: 1\n${extra}`);
    const io = captureIo({ STEWARD_PRODUCTION_TOKEN: TOKEN }, directory);
    return io.result(await runApply(undefined, { config: directory, baseUrl: server.url, requestTimeout: 0.6, autoApprove: true }, io));
  }

  it('a label update answered with the old colour fails, naming the field, sent and kept', async () => {
    const result = await apply('labels', {
      'GET /api/v1/labels': json(200, { labels: [labelRecord('finance', { color: '#0366d6' })] }),
      'PUT /api/v1/labels/finance': json(200, labelRecord('finance', { color: '#0366d6' })),
    });
    expect(result.code).toBe(1);
    expect(result.out).toContain(
      'updating label "finance": the server accepted the write, but its answer holds color "#0366d6" (sent "#1a7f37"); the change did not take',
    );
    expect(result.out).toMatch(/Apply: 0 done, 0 already applied, 1 failed/);
  });

  it('a colour the server writes in capitals is the colour asked for: applied once, then no change', async () => {
    const result = await apply('labels', {
      'GET /api/v1/labels': json(200, { labels: [] }),
      'POST /api/v1/labels': json(200, labelRecord('finance', { color: '#1A7F37' })),
    });
    expect(result.code).toBe(0);
    await server!.close();
    const again = await plan('labels', { 'GET /api/v1/labels': json(200, { labels: [labelRecord('finance', { color: '#1A7F37' })] }) });
    expect(again.code).toBe(0);
    expect(again.out).toContain('No changes.');
  });

  it('a credit-controls update answered with the old threshold fails', async () => {
    const result = await apply('labels', {
      'GET /api/v1/labels': json(200, { labels: [labelRecord('finance', { color: '#1a7f37' })] }),
      'GET /api/v1/ai/credit-controls': json(200, creditControlsBody({ shutoffCredits: 11000 })),
      'PATCH /api/v1/ai/credit-controls': json(200, creditControlsBody({ shutoffCredits: 11000 })),
    }, 'creditControls:\n  shutoffCredits: 12000\n');
    expect(result.code).toBe(1);
    expect(result.out).toContain('updating credit controls: the server accepted the write, but its answer holds shutoffCredits 11000 (sent 12000); the change did not take');
  });

  it('a routine update by the documented PUT whose answer keeps the old prompt fails', async () => {
    const live = routineRecord('r1', { name: 'Weekly digest', prompt: 'Summarise the week before.', timezone: 'Europe/Berlin', destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] } });
    const result = await apply('routines', {
      'GET /api/v1/ai/routines': json(200, routinePage([live], null)),
      'PUT /api/v1/ai/routines/r1': json(200, live),
    });
    expect(result.code).toBe(1);
    expect(result.out).toContain('updating routine "Weekly digest": the server accepted the write, but its answer holds prompt "Summarise the week before." (sent "Summarise last week."); the change did not take');
  });

  it('a routine delete answered `deleted: false` fails', async () => {
    const kept = routineRecord('r1', { name: 'Weekly digest', prompt: 'Summarise last week.', destination: { type: 'email', recipientEmails: ['ada@acme.example'], userGroupIds: [] } });
    const result = await apply('routines', {
      'GET /api/v1/ai/routines': json(200, routinePage([kept, routineRecord('r2', { name: 'Old digest' })], null)),
      'DELETE /api/v1/ai/routines/r2': json(200, { deleted: false }),
    }, 'prune:\n  routines: true\n');
    expect(result.code).toBe(1);
    expect(result.out).toContain('FAILED - routine "Old digest": deleting routine r2: the server answered `deleted: false`; the routine is still there');
  });
});
