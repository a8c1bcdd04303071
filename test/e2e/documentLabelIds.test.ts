// The bulk document-label PATCH: the documents page declares its path parameter a uuid, the
// documents list gives only `identifier` (the vendor CLI's file takes either). steward sends the
// identifier and never refuses a short one itself; against a server that wants a uuid, the steps
// fail with that said, everything else is applied, and nothing is lost (gaps.md, OPEN).
import { afterEach, describe, expect, it } from 'vitest';
import { gitopsAgainstDemo, type Steward } from './helpers.js';

let steward: Steward | undefined;
afterEach(async () => {
  await steward?.emulator.close();
  steward = undefined;
});

describe('document labels by identifier', () => {
  it('are written by the identifier the documents list gives, short as it is', async () => {
    steward = await gitopsAgainstDemo();
    expect((await steward.apply()).code).toBe(0);
    expect(steward.emulator.state.documentLabels('8f2e1d4c')).toContain('certified');
  });

  it('fail, saying why, on a server whose PATCH takes only uuids; the rest of the plan is applied', async () => {
    steward = await gitopsAgainstDemo({ documentLabelsPathId: 'uuid' });
    const result = await steward.apply();
    expect(result.code).toBe(1);
    expect(result.out).toMatch(
      /FAILED \+ label "certified" on document 8f2e1d4c: changing labels of document 8f2e1d4c: 400 Bad Request: documentId: Invalid uuid; steward sends the document's identifier \(8f2e1d4c\), the only id the documents list gives, and this server wants another id in its place/,
    );
    expect(result.out).toMatch(/done +\+ label "certified"\n/);
    expect(steward.emulator.state.documentLabels('8f2e1d4c')).not.toContain('certified');
    // The next plan shows the links again: nothing was lost and nothing is taken for done.
    const again = await steward.plan();
    expect(again.out).toContain('+   label "certified" on document 8f2e1d4c');
    // Against this server the identifier is the documented uuid's misfit, and the contract test says so.
    const misfits = steward.emulator.contractMisfits();
    expect(misfits).toHaveLength(4);
    for (const misfit of misfits) expect(misfit).toMatch(/^documents\.labels\.update \(PATCH \/api\/v1\/documents\/\w+\/labels\): path parameter documentId must match format "uuid"$/);
  });
});
