// Labels on folders (`folders:` on a label, by path or id; `pruneFolders`), as the vendor
// documents them: read with one listing of the folders, written with one PATCH per folder; a
// label to delete is taken off its folders first (the server refuses to delete a label in use);
// where a deleted label is used more than steward can see (restricted folders are listed only by
// their owner), the plan says before apply that the delete will be refused. Export, drift and
// promotion carry folders by path, the same in every deployment.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDrift } from '../../src/cli/drift.js';
import { EXIT } from '../../src/cli/plan.js';
import type { Seed } from '../../src/emulator/index.js';
import { datasetSeed, startEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/model/plan.js';
import { Deployments, planDirectory } from './deployments.js';
import { captureIo, copyExample, gitopsAgainstDemo, PROFILES, Steward } from './helpers.js';

let steward: Steward | undefined;
let deployments: Deployments | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  await deployments?.close();
  steward = undefined;
  deployments = undefined;
});

const labelsFile = (directory: string) => join(directory, 'labels.yaml');
/** steward on the gitops example against an emulator started with this seed. */
async function gitopsAgainst(seed: Seed): Promise<Steward> {
  return new Steward(await startEmulator({ data: seed }), await copyExample('gitops'));
}

async function editLabels(directory: string, edit: (text: string) => string): Promise<void> {
  await writeFile(labelsFile(directory), edit(await readFile(labelsFile(directory), 'utf8')));
}

describe.each(PROFILES)('folder labels (%s profile)', (profile) => {
  it('adds, keeps and takes off the labels of folders, and converges', async () => {
    steward = await gitopsAgainstDemo({ profile });
    const plan = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    const folderSteps = plan.steps.filter((step) => step.kind === 'folderLabels').map((step) => `${step.action} ${step.key}`);
    expect(folderSteps.sort()).toEqual(['create certified @ finance/board-packs', 'delete draft @ sandbox']);
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.folderLabels('finance/board-packs')).toEqual(['board-kpis', 'certified']);
    expect(steward.emulator.state.folderLabels('sandbox')).toEqual([]);
    expect(steward.emulator.state.folderLabels('finance')).toEqual(['finance']);
    expect(steward.emulator.stats().byRoute['PATCH /api/v1/folders/{folderId}/labels']).toBe(2);
    expect((await steward.plan()).code).toBe(EXIT.ok);
  });

  it('names a folder by id as well as by path, and warns about a folder the deployment does not have', async () => {
    steward = await gitopsAgainstDemo({ profile });
    expect(steward.emulator.state.folderLabels('marketing')).toEqual([]);
    const listed = await fetch(`${steward.emulator.url}/api/v1/folders?path=marketing`, { headers: { authorization: 'Bearer demo-org-admin-token' } });
    const id = ((await listed.json()) as { records: { id: string }[] }).records[0]!.id;
    await editLabels(steward.directory, (text) => text.replace('    documents: ["5e4d3c2b", "3a9b7c6d"]\n', `    documents: ["5e4d3c2b", "3a9b7c6d"]\n    folders: [${id}, finance/no-such-folder, Sandbox]\n`));
    const plan = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    expect(plan.steps.filter((step) => step.kind === 'folderLabels' && step.action === 'create').map((step) => step.key)).toContain('marketing @ marketing');
    expect(plan.warnings).toContainEqual({
      code: 'folderLabels.missing-folder',
      namesMissing: true,
      message: 'folder "finance/no-such-folder" is not a folder of this deployment, so label "marketing" is not applied to it',
      configPath: ['labels', 1, 'folders', 1],
    });
    // A folder's name where its path belongs: the path is suggested.
    expect(plan.warnings).toContainEqual({
      code: 'folderLabels.missing-folder',
      namesMissing: true,
      message: 'folder "Sandbox" is not a folder of this deployment, so label "marketing" is not applied to it (did you mean "sandbox"? folders are named by path)',
      configPath: ['labels', 1, 'folders', 2],
    });
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.folderLabels('marketing')).toEqual(['marketing']);
  });
});

describe('deleting a label that sits on folders', () => {
  it('takes it off them first, whatever the config says of folders, and the delete goes through', async () => {
    // A seed whose pruned label is on a folder and on no document.
    const seed = datasetSeed('demo') as Seed;
    seed.folders = [...(seed.folders ?? []), { name: 'Archive', path: 'archive', labels: ['obsolete'] }];
    steward = await gitopsAgainst(seed);
    await editLabels(steward.directory, (text) => text.replace(/    folders: .*\n/g, '').replace('    pruneFolders: true\n', ''));
    const plan = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    const unlink = plan.steps.find((step) => step.kind === 'folderLabels' && step.key === 'obsolete @ archive');
    expect(unlink).toMatchObject({ action: 'delete', reason: 'the label is being deleted' });
    expect(plan.steps.find((step) => step.id === 'labels/obsolete')?.dependsOn).toContain(unlink!.id);
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.labels().map((label) => label.name)).not.toContain('obsolete');
  });

  it('says before apply that the delete will be refused when the label is used where steward cannot see', async () => {
    const seed = datasetSeed('demo') as Seed;
    seed.folders = [...(seed.folders ?? []), { name: 'Mine', path: 'users/grace/mine', scope: 'restricted', owner: 'grace@acme.example', labels: ['obsolete'] }];
    steward = await gitopsAgainst(seed);
    const plan = JSON.parse((await steward.plan({ json: true })).out) as Plan;
    expect(plan.warnings).toContainEqual({
      code: 'labels.delete-in-use',
      message: 'label "obsolete" is applied 1 more time than the documents and organization folders steward sees (restricted folders are listed only by their owner); its delete will be refused (409) until it is taken off that one in the app',
    });
    const applied = await steward.apply();
    expect(applied.code).toBe(1);
    expect(applied.out).toMatch(/FAILED - label "obsolete": deleting label "obsolete": 409/);
  });
});

describe('folders across deployments', () => {
  it('export writes them by path, which round-trips; drift sees a folder label changed in the app; promotion carries them by path', async () => {
    deployments = await Deployments.start();
    const d = deployments;
    expect((await d.apply('production')).code).toBe(0);
    const exported = await d.export('production', { kind: ['labels'] });
    expect(exported.out).toContain('  - name: certified\n');
    expect(exported.out).toMatch(/ {4}folders: \[finance\/board-packs\]\n/);
    const directory = await d.besideEnvironments(exported.out);
    expect((await planDirectory(d, directory, 'production')).out).toContain('No changes.');

    // Someone takes `finance` off its folder in production: drift says so.
    const folders = await d.call('production', 'GET', '/api/v1/folders?path=finance');
    const finance = ((await folders.json()) as { records: { id: string }[] }).records[0]!.id;
    expect((await d.call('production', 'PATCH', `/api/v1/folders/${finance}/labels`, { remove: ['finance'] })).status).toBe(200);
    const io = captureIo(d.env, d.gitops);
    expect(await runDrift({ config: d.gitops, env: 'production', baseUrl: d.production.url }, io)).toBe(EXIT.changes);
    expect(io.result(0).out).toContain('label "finance" on folder "finance"');

    // Playground, applied from the same config, holds the label on the folder: a promotion puts it back, by path.
    expect((await d.apply('playground')).code).toBe(0);
    const promotion = JSON.parse((await d.diff({ json: true })).out) as Plan;
    expect(promotion.steps.map((step) => `${step.action} ${step.kind} ${step.key}`)).toContain('create folderLabels finance @ finance');
  });

  it('a promotion that takes a label off a folder says the source lacks it, not the config', async () => {
    deployments = await Deployments.start();
    const d = deployments;
    await editLabels(d.gitops, (text) => text.replace('    folders: [finance]\n', '    folders: [finance]\n    pruneFolders: true\n'));
    expect((await d.apply('production')).code).toBe(0);
    expect((await d.apply('playground')).code).toBe(0);
    // Someone takes `finance` off its folder in the playground.
    const folders = await d.call('playground', 'GET', '/api/v1/folders?path=finance');
    const finance = ((await folders.json()) as { records: { id: string }[] }).records[0]!.id;
    expect((await d.call('playground', 'PATCH', `/api/v1/folders/${finance}/labels`, { remove: ['finance'] })).status).toBe(200);
    const promotion = JSON.parse((await d.diff({ json: true })).out) as Plan;
    expect(promotion.steps.filter((step) => step.kind === 'folderLabels').map((step) => [step.action, step.key, step.reason])).toEqual([
      ['delete', 'finance @ finance', 'pruneFolders: not on this label in playground'],
    ]);
  });
});
