import { describe, expect, it } from 'vitest';
import { decodeFragment, encodeFragment, parseRecording, recordingToJSON } from './share';
import { formatClock, formatCountdown } from './format';
import type { LabRecording } from '$lib/sim/session/protocol';

const rec: LabRecording = {
  scenario: 'apiVersion: nodeplane.dev/v1alpha1\nkind: Scenario\n' + '# padding\n'.repeat(200),
  fileName: 'three-nodes.yaml',
  t: 350_000,
  actions: [
    { t: 60_000, kind: 'fault', action: 'StopKubelet', target: 'worker-1' },
    { t: 90_000, kind: 'console', line: 'kubectl cordon worker-2' },
    { t: 120_000, kind: 'apply', fileName: 'editor.yaml', yaml: 'kind: Node' }
  ]
};

describe('share links', () => {
  it('round-trips a recording through a compressed URL fragment', () => {
    const f = encodeFragment(rec);
    expect(f.startsWith('lab=')).toBe(true);
    expect(f).toMatch(/^lab=[A-Za-z0-9_-]+$/);
    expect(f.length).toBeLessThan(recordingToJSON(rec).length / 3);
    expect(decodeFragment('#' + f)).toEqual(rec);
  });

  it('ignores fragments that are not lab links and rejects damaged ones', () => {
    expect(decodeFragment('#main')).toBeUndefined();
    expect(decodeFragment('')).toBeUndefined();
    expect(() => decodeFragment('#lab=AAAA')).toThrow();
  });

  it('validates imported files', () => {
    expect(parseRecording(JSON.parse(recordingToJSON(rec)))).toEqual(rec);
    expect(() => parseRecording({ ...rec })).toThrow(
      'not a Nodeplane lab file (format nodeplane.dev/lab/v1 expected)'
    );
    expect(() =>
      parseRecording({ format: 'nodeplane.dev/lab/v1', ...rec, actions: [{ t: 1, kind: 'reboot' }] })
    ).toThrow('the lab file has an invalid action list');
    expect(() => parseRecording({ format: 'nodeplane.dev/lab/v1', ...rec, t: -5 })).toThrow(
      'the lab file has no valid time'
    );
  });
});

describe('clock format', () => {
  it('prints virtual time in kubectl-style units', () => {
    expect([0, 50_000, 350_000, 3_723_000].map(formatClock)).toEqual(['0s', '50s', '5m50s', '1h2m3s']);
    expect([9_450, 12_000].map(formatCountdown)).toEqual(['9.4s', '12s']);
  });
});
