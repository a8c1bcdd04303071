// The error body forms of api.md, checked as whole bodies: 400 and 429 in the detail form, 404 in
// the detail form with `error` (the status text) as api.md's 404 example shows, the rest in the
// error form; and steward's HTTP client reads each into the server's words.
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { PlatformApi } from '../../src/api/platform.js';
import { DEMO, TOKENS, useEmulator } from './helpers.js';

const fixture = useEmulator();

describe('error bodies', () => {
  it('answers 404 with error, detail and status', async () => {
    const unknownRoutine = await fixture.api.get(`/api/v1/ai/routines/${DEMO.unknownUuid}`);
    expect({ status: unknownRoutine.status, body: unknownRoutine.body }).toEqual({
      status: 404,
      body: { error: 'Not Found', detail: 'Routine not found', status: 404 },
    });
    const unknownPath = await fixture.api.get('/api/v1/nothing-here');
    expect(unknownPath.body).toEqual({ error: 'Not Found', detail: 'Not Found: no endpoint at /api/v1/nothing-here', status: 404 });
  });

  it('answers 400 with detail and status only', async () => {
    const response = await fixture.api.get(`/api/v1/ai/routines/not-a-uuid`);
    expect(response.body).toEqual({ detail: 'Bad Request: routineId: must be a UUID', status: 400 });
  });

  it('answers other statuses with error and message', async () => {
    const response = await fixture.api.request('DELETE', '/api/v1/ai/credit-controls');
    expect(response.body).toEqual({ error: 'Method Not Allowed', message: 'Method DELETE is not allowed on /api/v1/ai/credit-controls' });
  });
});

describe("the HTTP client's reading of a 404", () => {
  let client: ApiClient | undefined;
  afterAll(async () => client?.close());

  it('keeps the detail as the server message and the status text as its code', async () => {
    client = new ApiClient({ baseUrl: fixture.emulator.url, token: TOKENS.orgAdmin, log: () => {} });
    const error = await new PlatformApi(client).getRoutine(DEMO.unknownUuid).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'api.not-found',
      fault: 'user',
      serverMessage: 'Routine not found',
      serverCode: 'Not Found',
    });
    expect((error as ApiError).message).toMatch(/: 404 Routine not found$/);
  });
});
