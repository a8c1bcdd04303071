// The package as a user gets it: `npm pack` of a copy of this checkout, installed into an empty
// directory outside the repository, then `npx --no-install steward --help`, `init`, `validate` and `demo`
// there, and the programmatic emulator API imported with its type declarations. No source maps
// of unshipped sources, a LICENSE, and no warning about build scripts at the consumer's side.
// And the docs' way of running it, `npx --no-install steward`, never installs a package of that name
// from the registry: a loopback registry serving a stranger's `steward` is asked, and refused.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
/** Packing compiles steward (prepack), and installing asks the registry for the dependencies. */
const SLOW = 240_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with npm's own variables of the parent run removed (as in a fresh shell). */
function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...env, NO_COLOR: '1', ...extra }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

let base: string;
let tarball: string;
let packed: { path: string }[];
let consumer: string;
let install: Run;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'steward-pack-'));
  const checkout = join(base, 'checkout');
  await mkdir(checkout);
  // A copy, so packing (which compiles into dist/) never touches this working tree.
  for (const entry of ['bin', 'schemas', 'examples', 'scripts', 'src', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'LICENSE', 'README.md']) {
    await cp(join(REPOSITORY, entry), join(checkout, entry), { recursive: true });
  }
  await symlink(join(REPOSITORY, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const pack = await run('npm', ['pack', '--json', '--pack-destination', base], checkout);
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.stderr}`);
  const [result] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  tarball = join(base, result!.filename);
  packed = result!.files;

  consumer = join(base, 'consumer');
  await mkdir(consumer);
  await writeFile(join(consumer, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], consumer);
}, SLOW);

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the packed steward', () => {
  it('ships compiled code with type declarations and a LICENSE, and no source maps or sources', () => {
    const paths = packed.map((file) => file.path);
    expect(paths).toContain('LICENSE');
    expect(paths).toContain('dist/cli/main.js');
    expect(paths).toContain('dist/emulator/index.d.ts');
    expect(paths).toContain('schemas/steward.schema.json');
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('src/') || path.startsWith('test/'))).toEqual([]);
  });

  it('installs with its production dependencies and no warning about build scripts', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr.split('\n').filter((line) => /script/i.test(line))).toEqual([]);
  });

  it('runs `npx --no-install steward --help`, `init`, `validate` and `demo` in the consumer', async () => {
    const help = await run('npx', ['--no-install', 'steward', '--help'], consumer);
    expect(help.code, help.stderr).toBe(0);
    for (const command of ['init', 'validate', 'plan', 'apply', 'schema', 'completion']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));

    const init = await run('npx', ['--no-install', 'steward', 'init', '--env', 'production=https://acme.example.com'], consumer);
    expect(init.code, init.stderr).toBe(0);
    const config = await readFile(join(consumer, 'steward.yaml'), 'utf8');
    expect(config.split('\n')[0]).toBe('# yaml-language-server: $schema=./steward.schema.json');

    const validate = await run('npx', ['--no-install', 'steward', 'validate'], consumer);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toBe('The configuration at steward.yaml is valid (1 file; environment production).\n');

    const demo = await run('npx', ['--no-install', 'steward', 'demo'], consumer);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/\nDone in [\d.]+ s: the emulator served \d+ reads and \d+ writes\.\n/);
  }, SLOW);

  it('exports the emulator API with its types as @steward-cli/steward/emulator', async () => {
    await writeFile(
      join(consumer, 'check.ts'),
      "import { startEmulator, type RunningEmulator } from '@steward-cli/steward/emulator';\n" +
        "const emulator: RunningEmulator = await startEmulator({ dataset: 'demo' });\n" +
        'const status: number = (await fetch(`${emulator.url}/api/v1/users/me`)).status;\n' +
        'console.log(status);\nawait emulator.close();\n',
    );
    const typescript = join(REPOSITORY, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(
      process.execPath,
      [typescript, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--typeRoots', join(REPOSITORY, 'node_modules', '@types'), '--types', 'node', 'check.ts'],
      consumer,
    );
    expect(checked.stdout + checked.stderr).toBe('');
    await writeFile(join(consumer, 'check.mjs'), (await readFile(join(consumer, 'check.ts'), 'utf8')).replace(', type RunningEmulator', '').replace(': RunningEmulator', '').replace(': number', ''));
    const started = await run(process.execPath, ['check.mjs'], consumer);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toBe('401\n');
  }, SLOW);

  it('is installed under its scoped name, with the command `steward`', async () => {
    const manifest = JSON.parse(await readFile(join(consumer, 'node_modules', '@steward-cli', 'steward', 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
    expect(manifest.name).toBe('@steward-cli/steward');
    expect(Object.keys(manifest.bin)).toEqual(['steward']);
  });
});

describe('`npx --no-install steward`, as the docs write it', () => {
  let registry: Server;
  let registryUrl: string;
  const requests: string[] = [];
  const TOKEN = 'canary-token-7f3a';

  beforeAll(async () => {
    // A stranger's package published as `steward`: it prints the token it finds.
    const stranger = join(base, 'stranger');
    await mkdir(join(stranger, 'bin'), { recursive: true });
    await writeFile(join(stranger, 'package.json'), '{ "name": "steward", "version": "9.9.9", "bin": { "steward": "bin/steward.js" } }\n');
    await writeFile(join(stranger, 'bin', 'steward.js'), '#!/usr/bin/env node\nconsole.log(`stranger ran with ${process.env.STEWARD_TOKEN}`);\n');
    const packed = await run('npm', ['pack', '--json', '--pack-destination', base], stranger);
    expect(packed.code, packed.stderr).toBe(0);
    const { filename } = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[])[0]!;
    const tgz = await readFile(join(base, filename));
    registry = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      if (request.url === '/steward') {
        const dist = {
          tarball: `${registryUrl}steward/-/${filename}`,
          integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
          shasum: createHash('sha1').update(tgz).digest('hex'),
        };
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ name: 'steward', 'dist-tags': { latest: '9.9.9' }, versions: { '9.9.9': { name: 'steward', version: '9.9.9', bin: { steward: 'bin/steward.js' }, dist } } }));
      } else if (request.url?.endsWith('.tgz') === true) {
        response.end(tgz);
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const address = registry.address();
    registryUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`;
  }, SLOW);

  afterAll(async () => {
    await new Promise((resolve) => registry.close(resolve));
  });

  /** npm pointed at the loopback registry, with an empty cache of its own, as on a fresh machine. */
  const npx = (args: string[], cwd: string, cache: string) =>
    run('npx', args, cwd, { npm_config_registry: registryUrl, npm_config_cache: join(base, cache), STEWARD_TOKEN: TOKEN });

  it('runs the project\'s own steward without asking the registry', async () => {
    requests.length = 0;
    const result = await npx(['--no-install', 'steward', 'version'], consumer, 'cache-inside');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^steward 0\.1\.0 /);
    expect(requests).toEqual([]);
  }, SLOW);

  it('outside an installed project stops with an error, and never downloads or runs the registry\'s steward', async () => {
    const outside = join(base, 'outside');
    await mkdir(outside);
    requests.length = 0;
    const result = await npx(['--no-install', 'steward', 'version'], outside, 'cache-outside');
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).not.toContain('stranger ran');
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    // npm may look the name up; it fetches no package.
    expect(requests.filter((request) => request.endsWith('.tgz'))).toEqual([]);
  }, SLOW);
});
