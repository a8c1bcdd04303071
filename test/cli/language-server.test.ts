// What an editor sees: a real YAML language server (yaml-language-server, pinned) talks LSP over
// stdio to this test, which opens the steward.yaml that `steward init` scaffolded in a directory
// outside the repository. The modeline must resolve to the schema init wrote beside it, so the
// server reports a misspelt field, and nothing about the scaffold itself.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInit } from '../../src/cli/init.js';
import { captureIo } from '../e2e/helpers.js';

const SERVER = fileURLToPath(new URL('../../node_modules/yaml-language-server/bin/yaml-language-server', import.meta.url));

interface Diagnostic {
  message: string;
  range: { start: { line: number; character: number } };
}

/** A minimal LSP client: Content-Length framed JSON-RPC over the server's stdin and stdout. */
class LanguageClient {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private readonly diagnostics = new Map<string, Diagnostic[]>();
  private readonly waiting: { uri: string; resolve: (diagnostics: Diagnostic[]) => void }[] = [];
  readonly errors: string[] = [];

  constructor(private readonly server: ChildProcessWithoutNullStreams) {
    server.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    server.stderr.on('data', (chunk: Buffer) => this.errors.push(chunk.toString()));
  }

  request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve) => this.pending.set(id, resolve));
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** The next diagnostics published for `uri`. */
  diagnosticsFor(uri: string): Promise<Diagnostic[]> {
    return new Promise((resolve) => this.waiting.push({ uri, resolve }));
  }

  private send(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.server.stdin.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8')) as {
        id?: number;
        method?: string;
        params?: { uri: string; diagnostics: Diagnostic[] };
        result?: unknown;
      };
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(message);
    }
  }

  private dispatch(message: { id?: number; method?: string; params?: { uri: string; diagnostics: Diagnostic[] }; result?: unknown }): void {
    if (message.method === undefined && message.id !== undefined) {
      this.pending.get(message.id)?.(message.result);
      this.pending.delete(message.id);
    } else if (message.method === 'textDocument/publishDiagnostics' && message.params !== undefined) {
      this.diagnostics.set(message.params.uri, message.params.diagnostics);
      const index = this.waiting.findIndex((waiter) => waiter.uri === message.params!.uri);
      if (index !== -1) this.waiting.splice(index, 1)[0]!.resolve(message.params.diagnostics);
    } else if (message.id !== undefined) {
      // A request from the server (configuration, registrations): answer it plainly.
      const result = message.method === 'workspace/configuration' ? [{ validate: true, schemaStore: { enable: false } }] : null;
      this.send({ jsonrpc: '2.0', id: message.id, result });
    }
  }
}

let directory: string;
let server: ChildProcessWithoutNullStreams;
let client: LanguageClient;
/** steward.yaml as init wrote it. */
let scaffold: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'steward-editor-'));
  const io = captureIo({}, directory);
  expect(await runInit(undefined, { env: ['production=https://acme.example.com'] }, io)).toBe(0);
  scaffold = await readFile(join(directory, 'steward.yaml'), 'utf8');
  server = spawn(process.execPath, [SERVER, '--stdio'], { cwd: directory, stdio: 'pipe' });
  client = new LanguageClient(server);
  const root = pathToFileURL(directory).href;
  await client.request('initialize', {
    processId: process.pid,
    rootUri: root,
    workspaceFolders: [{ uri: root, name: 'gitops' }],
    capabilities: { textDocument: { publishDiagnostics: {} }, workspace: { configuration: true } },
  });
  client.notify('initialized', {});
  client.notify('workspace/didChangeConfiguration', { settings: { yaml: { validate: true, schemaStore: { enable: false } } } });
});

afterAll(async () => {
  server?.kill();
  await rm(directory, { recursive: true, force: true });
});

async function open(name: string, text: string): Promise<Diagnostic[]> {
  const file = join(directory, name);
  await writeFile(file, text);
  const uri = pathToFileURL(file).href;
  const published = client.diagnosticsFor(uri);
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  return published;
}

describe('the scaffold in an editor', () => {
  it('reports a misspelt field through the schema beside the config', async () => {
    const misspelt = `${scaffold}\ncreditControl:\n  shutoffCredits: 10000\n`;
    const diagnostics = await open('steward.yaml', misspelt);
    const line = misspelt.split('\n').indexOf('creditControl:');
    expect(diagnostics.map((diagnostic) => [diagnostic.range.start.line, diagnostic.message])).toContainEqual([line, expect.stringMatching(/creditControl/)]);
  });

  it('finds nothing wrong with the scaffold itself, so the schema did load', async () => {
    const diagnostics = await open('second.yaml', scaffold);
    expect(diagnostics).toEqual([]);
    const wrongType = await open('third.yaml', scaffold.replace('https://acme.example.com', '42'));
    expect(wrongType.length).toBeGreaterThan(0);
  });
});
