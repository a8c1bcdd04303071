// Test helpers for the emulator suite: start one emulator per file (reset before each test), a
// tiny fetch client that speaks as a given token, body-form assertions and builders for routine
// bodies and seeds, so tests read like the spec they check.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import type { Seed } from '../../src/emulator/seedTypes.js';
import type { RoutineCreate } from '../../src/api/types.js';

export const TOKENS = {
  orgAdmin: 'demo-org-admin-token',
  orgMember: 'demo-org-member-token',
  adaPersonal: 'demo-ada-personal-token',
  gracePersonal: 'demo-grace-personal-token',
} as const;

export const DEMO = {
  models: { sales: '5b0e7a52-6c1d-4f3a-9e2b-8d7c6b5a4f30', marketing: 'a3d9c1e7-2f4b-4e8a-b6c5-0d1e2f3a4b5c' },
  salesBranch: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  unknownUuid: '00000000-0000-4000-8000-000000000000',
} as const;

export interface ApiResponse {
  status: number;
  /** Parsed JSON body, or undefined when there is none. */
  body: any;
  headers: Headers;
}

type Query = Record<string, string | number | undefined>;

/** A minimal client for one emulator and one token (or none). */
export class Api {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  /** The same client with another token (undefined: no Authorization header). */
  as(token: string | undefined): Api {
    return new Api(this.baseUrl, token);
  }

  async request(method: string, path: string, options: { query?: Query; body?: unknown; rawBody?: string } = {}): Promise<ApiResponse> {
    const url = new URL(path, this.baseUrl);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {};
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
  }

  get(path: string, query?: Query) {
    return this.request('GET', path, { query });
  }
  post(path: string, body?: unknown, query?: Query) {
    return this.request('POST', path, { body, query });
  }
  put(path: string, body?: unknown, query?: Query) {
    return this.request('PUT', path, { body, query });
  }
  patch(path: string, body?: unknown, query?: Query) {
    return this.request('PATCH', path, { body, query });
  }
  delete(path: string, query?: Query) {
    return this.request('DELETE', path, { query });
  }
}

export interface EmulatorFixture {
  readonly emulator: RunningEmulator;
  /** A client speaking as the org admin key, unless told otherwise with `.as(token)`. */
  readonly api: Api;
}

/** Starts one emulator for the test file and resets it before each test. */
export function useEmulator(options: EmulatorOptions = {}): EmulatorFixture {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  beforeEach(() => {
    emulator?.reset();
    emulator?.clearFaults();
  });
  return {
    get emulator() {
      return emulator!;
    },
    get api() {
      return new Api(emulator!.url, TOKENS.orgAdmin);
    },
  };
}

/** Asserts a detail-form error body `{detail, status}`; a 404's also carries `error: "Not Found"` (api.md). */
export function expectDetail(response: ApiResponse, status: number, detail: string | RegExp): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: {
      ...(status === 404 ? { error: 'Not Found' } : {}),
      detail: typeof detail === 'string' ? detail : expect.stringMatching(detail),
      status,
    },
  });
}

const REASON: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  409: 'Conflict',
  500: 'Internal Server Error',
};

/** Asserts an error-form body `{error, message}`. */
export function expectError(response: ApiResponse, status: number, message: string | RegExp): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: REASON[status], message: typeof message === 'string' ? message : expect.stringMatching(message) },
  });
}

/** A valid routine create body on the demo Sales model; override any field. */
export function aRoutine(overrides: Partial<Record<keyof RoutineCreate, unknown>> & Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Monthly margin review',
    prompt: 'Summarise gross margin by product line.',
    schedule: '0 7 1 * ? *',
    timezone: 'Europe/Berlin',
    modelId: DEMO.models.sales,
    destination: emailTo('ada@acme.example'),
    ...overrides,
  };
}

/** An e-mail destination. */
export function emailTo(...recipientEmails: string[]) {
  return { type: 'email', recipientEmails, userGroupIds: [] as string[] };
}

/** A Slack channel destination. */
export function slackChannel(recipientId = 'C0FINANCE1') {
  return { type: 'slack', recipientId, slackRecipientType: 'channel' };
}

/** A small valid seed: one admin (ada), one member (bob), one model, org and personal tokens. */
export function aSeed(overrides: Partial<Seed> = {}): Seed {
  return {
    organization: { name: 'Tiny Co' },
    users: [
      { id: '11111111-1111-4111-8111-111111111111', email: 'ada@tiny.example', displayName: 'Ada', role: 'ORG_ADMIN' },
      { id: '22222222-2222-4222-8222-222222222222', email: 'bob@tiny.example', displayName: 'Bob', role: 'MEMBER' },
    ],
    models: [
      {
        id: '33333333-3333-4333-8333-333333333333',
        name: 'Core',
        roles: { 'ada@tiny.example': 'MANAGER', 'bob@tiny.example': 'VIEWER' },
        topics: ['orders'],
      },
    ],
    apiTokens: [
      { name: 'admin key', token: 'tiny-org-admin', type: 'organization', role: 'ORG_ADMIN', owner: 'ada@tiny.example' },
      { name: 'bob token', token: 'tiny-bob-personal', type: 'personal', owner: 'bob@tiny.example' },
    ],
    ...overrides,
  };
}

/** Collects every record of a paginated list endpoint, following `nextCursor`. */
export async function collectPages(api: Api, path: string, query: Query = {}): Promise<{ records: any[]; pages: number }> {
  const records: any[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const response = await api.get(path, { ...query, cursor });
    expect(response.status).toBe(200);
    records.push(...response.body.records);
    pages += 1;
    cursor = response.body.pageInfo.nextCursor ?? undefined;
    expect(response.body.pageInfo.hasNextPage).toBe(cursor !== undefined);
  } while (cursor !== undefined && pages < 100);
  return { records, pages };
}
