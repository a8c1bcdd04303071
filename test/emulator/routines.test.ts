// AI routines: list per owner (newest first, paginated), read, create (201) with every validation
// case, update by the generated client's PATCH (served with routineUpdateMethod patch; the
// documented PUT is in routinesPut.test.ts), delete and trigger, with the body forms of api.md
// (400/404/429 detail form, other errors in the error form).
import { describe, expect, it } from 'vitest';
import { aRoutine, DEMO, emailTo, expectDetail, expectError, slackChannel, TOKENS, useEmulator, type EmulatorFixture } from './helpers.js';

const fixture = useEmulator();
const ROUTINES = '/api/v1/ai/routines';
const routineByName = (name: string, on: EmulatorFixture = fixture) => on.emulator.state.routines().find((routine) => routine.name === name)!;

describe('GET /api/v1/ai/routines', () => {
  it("lists the caller's routines newest first, paused ones included", async () => {
    const response = await fixture.api.as(TOKENS.adaPersonal).get(ROUTINES);
    expect(response.status).toBe(200);
    expect(response.body.records.map((routine: { name: string }) => routine.name)).toEqual([
      'Daily pipeline check',
      'Weekly revenue digest',
      'Old experiment',
    ]);
    expect(response.body.pageInfo).toEqual({ hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 3 });
  });

  it('lists the routines of the user an organization key names with userId', async () => {
    const response = await fixture.api.get(ROUTINES, { userId: fixture.emulator.state.userId('grace@acme.example') });
    expect(response.body.records.map((routine: { name: string }) => routine.name)).toEqual(["Grace's weekly KPIs"]);
  });

  it('lists the routines of the key creator for an organization key without userId', async () => {
    const response = await fixture.api.get(ROUTINES);
    expect(response.body.pageInfo.totalRecords).toBe(3);
  });

  it('returns an empty page for a user without routines', async () => {
    const response = await fixture.api.get(ROUTINES, { userId: fixture.emulator.state.userId('ken@acme.example') });
    expect(response.body).toEqual({ records: [], pageInfo: { hasNextPage: false, nextCursor: null, pageSize: 20, totalRecords: 0 } });
  });

  it('sorts by name when asked and rejects unknown sort fields', async () => {
    const response = await fixture.api.get(ROUTINES, { sortField: 'name', sortDirection: 'asc' });
    expect(response.body.records.map((routine: { name: string }) => routine.name)).toEqual([
      'Daily pipeline check',
      'Old experiment',
      'Weekly revenue digest',
    ]);
    expectDetail(await fixture.api.get(ROUTINES, { sortField: 'owner' }), 400, 'Bad Request: sortField: must be one of createdAt, updatedAt, name');
  });
});

describe('GET /api/v1/ai/routines/{routineId}', () => {
  it('returns the full routine with server-managed fields', async () => {
    const digest = routineByName('Weekly revenue digest');
    const response = await fixture.api.get(`${ROUTINES}/${digest.id}`);
    expect(response.body).toEqual({
      id: digest.id,
      name: 'Weekly revenue digest',
      prompt: "Summarise last week's revenue by region and call out anomalies.",
      schedule: '0 9 ? * MON *',
      timezone: 'Europe/Berlin',
      modelId: DEMO.models.sales,
      branchId: null,
      topicName: 'orders',
      description: null,
      destination: { type: 'email', recipientEmails: ['ada@acme.example', 'grace@acme.example'], userGroupIds: [] },
      disabled: false,
      systemDisabled: false,
      systemDisabledReason: null,
      lastRun: null,
      recipientCount: 2,
      createdAt: '2025-02-03T08:00:00.000Z',
      updatedAt: '2025-02-03T08:00:00.000Z',
    });
  });

  it("hides another user's routine from a personal token (404)", async () => {
    const digest = routineByName('Weekly revenue digest');
    expectDetail(await fixture.api.as(TOKENS.gracePersonal).get(`${ROUTINES}/${digest.id}`), 404, 'Routine not found');
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expectDetail(await fixture.api.get(`${ROUTINES}/not-a-uuid`), 400, 'Bad Request: routineId: must be a UUID');
    expectDetail(await fixture.api.get(`${ROUTINES}/${DEMO.unknownUuid}`), 404, 'Routine not found');
  });
});

describe('POST /api/v1/ai/routines', () => {
  it('creates a routine and answers with its id only', async () => {
    const response = await fixture.api.as(TOKENS.gracePersonal).post(ROUTINES, aRoutine({ description: 'For the CFO' }));
    expect(response.status).toBe(201);
    expect(Object.keys(response.body)).toEqual(['id']);
    const created = fixture.emulator.state.routine(response.body.id)!;
    expect(created).toMatchObject({
      name: 'Monthly margin review',
      description: 'For the CFO',
      branchId: null,
      topicName: null,
      disabled: false,
      systemDisabled: false,
      lastRun: null,
      recipientCount: 1,
    });
    expect(created.createdAt).toBe(created.updatedAt);
    expect(fixture.emulator.state.routines('grace@acme.example').map((routine) => routine.name)).toContain('Monthly margin review');
  });

  it('stores the schedule as the platform does, trimmed and with single spaces between fields', async () => {
    const response = await fixture.api.post(ROUTINES, aRoutine({ schedule: ' 0 9 ?\u00a0*  MON * ' }));
    expect(response.status).toBe(201);
    expect(fixture.emulator.state.routine(response.body.id)!.schedule).toBe('0 9 ? * MON *');
  });

  it('creates for the user an organization key names with userId', async () => {
    const response = await fixture.api.post(ROUTINES, aRoutine(), { userId: fixture.emulator.state.userId('ken@acme.example') });
    expect(response.status).toBe(201);
    expect(fixture.emulator.state.routines('ken@acme.example').map((routine) => routine.id)).toEqual([response.body.id]);
  });

  it('accepts a Slack destination, a branch, a topic and user groups (counted as recipients)', async () => {
    const finance = fixture.emulator.state.snapshot().groups.find((group) => group.displayName === 'Finance')!;
    const slack = await fixture.api.post(ROUTINES, aRoutine({ destination: slackChannel(), branchId: DEMO.salesBranch, topicName: 'pipeline' }));
    expect(fixture.emulator.state.routine(slack.body.id)).toMatchObject({
      destination: { type: 'slack', recipientId: 'C0FINANCE1', slackRecipientType: 'channel' },
      branchId: DEMO.salesBranch,
      topicName: 'pipeline',
      recipientCount: 1,
    });
    const groups = await fixture.api.post(ROUTINES, aRoutine({
      destination: { type: 'email', recipientEmails: ['ada@acme.example', 'outside@example.org'], userGroupIds: [finance.uuid] },
    }));
    expect(groups.status).toBe(201);
    // ada (twice: directly and through Finance), grace and the outside address.
    expect(fixture.emulator.state.routine(groups.body.id)!.recipientCount).toBe(3);
  });

  it.each([
    ['no name', { name: undefined }, 'Bad Request: name: is required'],
    ['no prompt', { prompt: undefined }, 'Bad Request: prompt: is required'],
    ['no schedule', { schedule: undefined }, 'Bad Request: schedule: is required'],
    ['no timezone', { timezone: undefined }, 'Bad Request: timezone: is required'],
    ['no modelId', { modelId: undefined }, 'Bad Request: modelId: is required'],
    ['no destination', { destination: undefined }, 'Bad Request: destination: is required'],
    ['a blank name', { name: '   ' }, 'Bad Request: name: must not be empty'],
    ['a name over 255 characters', { name: 'x'.repeat(256) }, 'Bad Request: name: must be 1 to 255 characters long'],
    ['a blank prompt', { prompt: '' }, 'Bad Request: prompt: must not be empty'],
    ['a five-field schedule', { schedule: '0 9 * * MON' }, 'Bad Request: schedule: must have six fields (minute hour day-of-month month day-of-week year), found 5'],
    ['a schedule without ?', { schedule: '0 9 * * MON *' }, 'Bad Request: schedule: exactly one of day-of-month and day-of-week must be `?`'],
    ['a schedule more often than hourly', { schedule: '0/15 * ? * * *' }, 'Bad Request: schedule: runs more often than hourly (the minute field must name a single minute)'],
    ['a schedule on a date that does not exist', { schedule: '0 8 30 2 ? *' }, 'Bad Request: schedule: never runs (no date matches it)'],
    ['a schedule whose years are past', { schedule: '0 8 ? * MON 1999' }, 'Bad Request: schedule: never runs again (every date it matches is in the past)'],
    ['a schedule that is not a string', { schedule: 9 }, 'Bad Request: schedule: must be a string'],
    ['an unknown timezone', { timezone: 'Mars/Olympus' }, 'Bad Request: timezone: unknown timezone `Mars/Olympus`'],
    ['a mis-cased timezone', { timezone: 'europe/berlin' }, 'Bad Request: timezone: timezone `europe/berlin` is mis-cased (did you mean `Europe/Berlin`?)'],
    ['a modelId that is not a UUID', { modelId: 'sales' }, 'Bad Request: modelId: must be a UUID'],
    ['a branchId that is not a UUID', { branchId: 'main' }, 'Bad Request: branchId: must be a UUID'],
    ['two destinations', { destination: [emailTo('ada@acme.example'), slackChannel()] }, 'Bad Request: destination: exactly one destination is allowed; create one routine per destination'],
    // Keys the create body does not document meet the vendor's generic refusal before the handler's own checks.
    ['a destinations list', { destinations: [emailTo('ada@acme.example')] }, "Bad Request: formErrors: Unrecognized key(s) in object: 'destinations'"],
    ['a destination of another type', { destination: { type: 'webhook', url: 'https://x.example' } }, 'Bad Request: destination.type: must be "email" or "slack"'],
    ['an e-mail destination without recipients', { destination: emailTo() }, 'Bad Request: destination: an e-mail destination needs at least one recipient e-mail or user group'],
    ['an invalid e-mail', { destination: emailTo('ada at acme') }, 'Bad Request: destination.recipientEmails[0]: invalid e-mail address `ada at acme`'],
    ['a duplicate e-mail', { destination: emailTo('ada@acme.example', 'ADA@acme.example') }, 'Bad Request: destination.recipientEmails[1]: duplicate recipient `ADA@acme.example`'],
    ['a user group id that is not a UUID', { destination: { type: 'email', recipientEmails: [], userGroupIds: ['fin7q2k'] } }, 'Bad Request: destination.userGroupIds[0]: must be a UUID'],
    ['an unknown user group', { destination: { type: 'email', recipientEmails: [], userGroupIds: [DEMO.unknownUuid] } }, `Bad Request: destination.userGroupIds[0]: unknown user group ${DEMO.unknownUuid}`],
    ['an unknown e-mail destination field', { destination: { ...emailTo('ada@acme.example'), cc: [] } }, 'Bad Request: destination.cc: unknown field'],
    ['a Slack channel id that is not one', { destination: slackChannel('U0USER0001') }, 'Bad Request: destination.recipientId: must be a Slack channel id: C or G followed by at least 6 upper-case letters or digits'],
    ['a Slack channel id that is too short', { destination: slackChannel('C0123') }, 'Bad Request: destination.recipientId: must be a Slack channel id: C or G followed by at least 6 upper-case letters or digits'],
    ['a Slack user id that is not one', { destination: { type: 'slack', recipientId: 'C0CHANNEL1', slackRecipientType: 'users' } }, 'Bad Request: destination.recipientId: must be a Slack user id: U or W followed by at least 6 upper-case letters or digits'],
    ['an unknown Slack recipient type', { destination: { type: 'slack', recipientId: 'C0CHANNEL1', slackRecipientType: 'group' } }, 'Bad Request: destination.slackRecipientType: must be "channel" or "users"'],
    ['an unknown field', { isActive: true }, "Bad Request: formErrors: Unrecognized key(s) in object: 'isActive'"],
    ['several unknown fields', { isActive: true, owner: 'ada' }, "Bad Request: formErrors: Unrecognized key(s) in object: 'isActive', 'owner'"],
  ])('rejects %s with 400 in the detail form', async (_what, overrides, detail) => {
    const before = fixture.emulator.state.routines().length;
    expectDetail(await fixture.api.post(ROUTINES, aRoutine(overrides)), 400, detail);
    expect(fixture.emulator.state.routines()).toHaveLength(before);
  });

  it('rejects a body that is not an object', async () => {
    expectDetail(await fixture.api.post(ROUTINES, 'routine'), 400, 'Bad Request: body: must be a JSON object');
  });

  it.each([
    ['an unknown model', { modelId: DEMO.unknownUuid }, `Model not found: ${DEMO.unknownUuid}`],
    ['a branch the model does not have', { branchId: DEMO.unknownUuid }, `Branch not found: ${DEMO.unknownUuid}`],
    ['a branch of another model', { modelId: DEMO.models.marketing, branchId: DEMO.salesBranch }, `Branch not found: ${DEMO.salesBranch}`],
    ['a topic the model does not have', { topicName: 'campaigns' }, 'Topic not found: campaigns'],
  ])('answers 404 in the detail form for %s', async (_what, overrides, detail) => {
    expectDetail(await fixture.api.post(ROUTINES, aRoutine(overrides)), 404, detail);
  });
});

describe('PATCH /api/v1/ai/routines/{routineId}, the generated client\'s (routineUpdateMethod patch)', () => {
  const patching = useEmulator({ routineUpdateMethod: 'patch' });
  const digestOf = () => routineByName('Weekly revenue digest', patching);

  it('changes the fields sent, keeps the others and moves updatedAt', async () => {
    const digest = digestOf();
    const response = await patching.api.patch(`${ROUTINES}/${digest.id}`, {
      schedule: '30 9 ? * MON *',
      timezone: 'UTC',
      description: 'Moved to half past',
      destination: slackChannel('C0REVENUE1'),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: digest.id,
      name: 'Weekly revenue digest',
      schedule: '30 9 ? * MON *',
      timezone: 'UTC',
      description: 'Moved to half past',
      destination: { type: 'slack', recipientId: 'C0REVENUE1', slackRecipientType: 'channel' },
      recipientCount: 1,
      createdAt: digest.createdAt,
    });
    expect(response.body.updatedAt > digest.updatedAt).toBe(true);
    const cleared = await patching.api.patch(`${ROUTINES}/${digest.id}`, { description: null });
    expect(cleared.body.description).toBeNull();
  });

  it.each([
    ['an empty body', {}, 'Bad Request: body: at least one of name, prompt, schedule, timezone, description, destination is required'],
    // The PATCH body has no model and no isActive: undocumented keys, refused by the vendor's generic screen.
    ['a model change', { modelId: DEMO.models.marketing }, "Bad Request: formErrors: Unrecognized key(s) in object: 'modelId'"],
    ['isActive (pausing is done with PUT)', { isActive: false }, "Bad Request: formErrors: Unrecognized key(s) in object: 'isActive'"],
    ['an invalid schedule', { schedule: '* * ? * * *' }, 'Bad Request: schedule: runs more often than hourly (the minute field must name a single minute)'],
    ['a schedule that never runs', { schedule: '0 8 31 4 ? *' }, 'Bad Request: schedule: never runs (no date matches it)'],
    ['an invalid destination', { destination: emailTo() }, 'Bad Request: destination: an e-mail destination needs at least one recipient e-mail or user group'],
  ])('rejects %s with 400 and changes nothing', async (_what, body, detail) => {
    const digest = digestOf();
    expectDetail(await patching.api.patch(`${ROUTINES}/${digest.id}`, body), 400, detail);
    expect(patching.emulator.state.routine(digest.id)).toEqual(digest);
  });

  it('answers 404 for an unknown routine, and serves the documented PUT beside it', async () => {
    expectDetail(await patching.api.patch(`${ROUTINES}/${DEMO.unknownUuid}`, { name: 'x' }), 404, 'Routine not found');
    const digest = digestOf();
    const put = await patching.api.put(`${ROUTINES}/${digest.id}`, { name: 'x', prompt: 'y', schedule: '0 9 ? * MON *' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'x', prompt: 'y' });
    const post = await patching.api.post(`${ROUTINES}/${digest.id}`, {});
    expectError(post, 405, 'Method POST is not allowed on /api/v1/ai/routines/{routineId}');
    expect(post.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE');
  });

  it('is not served on the vendor profile, which updates by the documented PUT only (405)', async () => {
    const digest = routineByName('Weekly revenue digest');
    const response = await fixture.api.patch(`${ROUTINES}/${digest.id}`, { name: 'x' });
    expectError(response, 405, 'Method PATCH is not allowed on /api/v1/ai/routines/{routineId}');
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
    expect(fixture.emulator.state.routine(digest.id)).toEqual(digest);
  });
});

describe('DELETE /api/v1/ai/routines/{routineId}', () => {
  it('deletes and answers {deleted: true, id}; the routine is gone afterwards', async () => {
    const old = routineByName('Old experiment');
    const response = await fixture.api.delete(`${ROUTINES}/${old.id}`);
    expect(response.body).toEqual({ deleted: true, id: old.id });
    expectDetail(await fixture.api.get(`${ROUTINES}/${old.id}`), 404, 'Routine not found');
    expectDetail(await fixture.api.delete(`${ROUTINES}/${old.id}`), 404, 'Routine not found');
  });

  it("refuses to delete another user's routine through a personal token", async () => {
    const old = routineByName('Old experiment');
    expectDetail(await fixture.api.as(TOKENS.gracePersonal).delete(`${ROUTINES}/${old.id}`), 404, 'Routine not found');
    expect(fixture.emulator.state.routine(old.id)).toBeDefined();
  });
});

describe('POST /api/v1/ai/routines/{routineId}/trigger', () => {
  it('starts a run, answers its id and records it as lastRun', async () => {
    const digest = routineByName('Weekly revenue digest');
    const response = await fixture.api.post(`${ROUTINES}/${digest.id}/trigger`);
    // 202 Accepted, as documented: the run goes on after the answer.
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const read = await fixture.api.get(`${ROUTINES}/${digest.id}`);
    expect(read.body.lastRun).toEqual({ completedAt: expect.any(String), label: 'Manual run', state: 'completed' });
  });

  it('answers 404 for an unknown routine', async () => {
    expectDetail(await fixture.api.post(`${ROUTINES}/${DEMO.unknownUuid}/trigger`), 404, 'Routine not found');
  });

  it('answers 404 for a paused routine, which cannot be triggered (as documented)', async () => {
    const paused = fixture.emulator.state.routines().find((routine) => routine.disabled)!;
    expectDetail(await fixture.api.post(`${ROUTINES}/${paused.id}/trigger`), 404, 'Routine not found or cannot be triggered (paused or disabled)');
  });
});
