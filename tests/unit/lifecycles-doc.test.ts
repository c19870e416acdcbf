/**
 * docs/lifecycles.md is printed from the XState machines the engine steps: when a machine changes,
 * `npx tsx scripts/gen-lifecycles.ts` rewrites the page, and this test fails until it does.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC_PATH, lifecyclesDoc } from '../../scripts/gen-lifecycles';

describe('docs/lifecycles.md', () => {
  it('is up to date with the machine definitions (run npx tsx scripts/gen-lifecycles.ts)', async () => {
    expect(readFileSync(DOC_PATH, 'utf8')).toBe(await lifecyclesDoc());
  });

  it('prints every state and the transitions of the node health machine', async () => {
    const doc = await lifecyclesDoc();
    expect(doc).toContain('| `ready`               | The kubelet posts Ready=True');
    expect(doc).toContain('ready --> unknown: GRACE_EXPIRED');
    expect(doc).toMatch(
      /\| any state +\| `OBSERVED` +\| `observedUnknown` +\| `unknown` +\| `markNodeForTainting\(status=Unknown\)` +\|/
    );
    expect(doc).toContain('waiting_ErrImagePull --> waiting_ImagePullBackOff: PULL_BACK_OFF');
  });
});
