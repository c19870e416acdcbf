import { describe, expect, it } from 'vitest';
import { anchor, CLIENTS, formatRate, groupName, tiles, WIDTH } from './layout';

describe('cluster diagram layout', () => {
  it('puts nodes in rows of four inside the diagram, and grows the height per row', () => {
    const one = tiles(['a']);
    const five = tiles(['a', 'b', 'c', 'd', 'e']);
    expect(five.tiles[4].box.y).toBeGreaterThan(five.tiles[0].box.y);
    expect(five.tiles[4].box.x).toBe(five.tiles[0].box.x);
    expect(five.height).toBeGreaterThan(one.height);
    for (const t of five.tiles) expect(t.box.x + t.box.w).toBeLessThanOrEqual(WIDTH);
  });

  it('starts a kubelet edge and a kube-proxy edge at their node, and clients at their box', () => {
    const { tiles: ts } = tiles(['worker-1']);
    const byTile = new Map(ts.map((t) => [t.id, t]));
    expect(anchor('kubelet@worker-1', byTile)).toEqual(ts[0].kubelet);
    expect(anchor('kube-proxy@worker-1', byTile)).toEqual(ts[0].proxy);
    expect(anchor('kube-scheduler', byTile)).toEqual(CLIENTS['kube-scheduler']);
    expect(anchor('kubelet@gone', byTile)).toBeUndefined();
  });

  it('prints rates compactly and names groups by their pool or zone', () => {
    expect([0, 0.1, 0.25, 9.96, 12.4, 1530].map(formatRate)).toEqual(['0', '0.1', '0.3', '10', '12', '1.5k']);
    expect(groupName('pool:gpu')).toBe('gpu');
    expect(groupName('zone:eu-west-1a')).toBe('eu-west-1a');
  });
});
