import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../../kubectl/console';
import { createCluster } from '../../scenario/bootstrap';

const scenario = readFileSync(new URL('../../../../../scenarios/three-nodes.yaml', import.meta.url), 'utf8');

describe('rm /var/lib/fill.img in the node shell', () => {
  it('frees what FillDisk took; other files do not exist', () => {
    const c = createCluster(scenario, { fileName: 'three-nodes.yaml' }).cluster;
    c.runUntil(10_000);
    const sh = new ConsoleSession(c, {});
    sh.exec('ssh worker-1');
    expect(sh.exec('rm /var/lib/fill.img')).toEqual({
      stdout: '',
      stderr: "rm: cannot remove '/var/lib/fill.img': No such file or directory\n",
      exitCode: 1
    });
    c.applyFault('FillDisk', { target: 'worker-1' });
    const host = c.nodeHost('worker-1')!;
    expect(host.state.system.fillDisk).toBeGreaterThan(0);
    expect(sh.exec('rm -f /var/lib/fill.img')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(host.state.system.fillDisk).toBe(0);
    expect(c.faultLog.at(-1)).toEqual({ t: 10_000, action: 'FillDisk', target: 'worker-1' });
    expect(sh.exec('rm').stderr).toBe("rm: missing operand\nTry 'rm --help' for more information.\n");
  });
});
