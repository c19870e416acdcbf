/**
 * The read-side door holds: UI code may import the simulation only through sim/observe, the
 * session protocol and the console protocol. ESLint's no-restricted-imports rule enforces it (and
 * `npm run lint` runs it over every file); this test checks the rule catches what it must.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function restricted(code: string, filePath: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath });
  return r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// The first lint loads ESLint's TypeScript and Svelte parsers: slow on a busy 2-core machine.
describe('the read-side door', { timeout: 120_000 }, () => {
  it('refuses a view that imports the cluster or a component', async () => {
    const msgs = await restricted(
      "import { Cluster } from '$lib/sim/cluster';\nimport { kubeProxyOf } from '$lib/sim/network/kubeproxy';\nexport const x = [Cluster, kubeProxyOf];\n",
      'src/lib/ui/views/Example.ts'
    );
    expect(msgs).toHaveLength(2);
    expect(msgs[0]).toContain('only through $lib/sim/observe');
  });

  it('refuses a deep import of a read-model builder from a route', async () => {
    expect(
      await restricted(
        "import { ViewBuilder } from '$lib/sim/observe/cluster-map';\nexport const x = ViewBuilder;\n",
        'src/routes/example/helper.ts'
      )
    ).toHaveLength(1);
  });

  it('lets views import the door itself', async () => {
    expect(
      await restricted(
        "import type { LabView } from '$lib/sim/observe';\nimport { SPEEDS } from '$lib/sim/session/protocol';\nimport { editorSchemas } from '$lib/sim/observe/schemas';\nexport const x: [LabView | undefined, unknown, unknown] = [undefined, SPEEDS, editorSchemas];\n",
        'src/lib/ui/views/Example.ts'
      )
    ).toEqual([]);
  });
});
