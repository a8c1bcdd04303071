// The package as a user gets it: `npm pack` of a copy of this checkout, installed into an empty
// directory outside the repository, then `npx steward --help`, `init`, `validate` and `demo`
// there, and the programmatic emulator API imported with its type declarations. No source maps
// of unshipped sources, a LICENSE, and no warning about build scripts at the consumer's side.
import { execFile } from 'node:child_process';
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
function run(command: string, args: string[], cwd: string): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: { ...env, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
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

  it('runs `npx steward --help`, `init`, `validate` and `demo` in the consumer', async () => {
    const help = await run('npx', ['steward', '--help'], consumer);
    expect(help.code, help.stderr).toBe(0);
    for (const command of ['init', 'validate', 'plan', 'apply', 'schema', 'completion']) expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));

    const init = await run('npx', ['steward', 'init', '--env', 'production=https://acme.example.com'], consumer);
    expect(init.code, init.stderr).toBe(0);
    const config = await readFile(join(consumer, 'steward.yaml'), 'utf8');
    expect(config.split('\n')[0]).toBe('# yaml-language-server: $schema=./steward.schema.json');

    const validate = await run('npx', ['steward', 'validate'], consumer);
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toBe('The configuration at steward.yaml is valid (1 file; environment production).\n');

    const demo = await run('npx', ['steward', 'demo'], consumer);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/\nDone in [\d.]+ s: the emulator served \d+ reads and \d+ writes\.\n/);
  }, SLOW);

  it('exports the emulator API with its types as steward/emulator', async () => {
    await writeFile(
      join(consumer, 'check.ts'),
      "import { startEmulator, type RunningEmulator } from 'steward/emulator';\n" +
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
});
