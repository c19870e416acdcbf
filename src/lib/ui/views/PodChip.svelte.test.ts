// upstream: pkg/controller/tainteviction/taint_eviction.go (a pod tolerating a NoExecute taint
// for tolerationSeconds is deleted that long after the taint's timeAdded)
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { PodView } from '$lib/sim/observe';
import PodChip from './PodChip.svelte';

const pod = (extra: Partial<PodView>): PodView => ({
  key: 'default/web-1',
  name: 'web-1',
  namespace: 'default',
  phase: 'Running',
  status: 'Running',
  nodeName: 'worker-1',
  terminating: false,
  ...extra
});

describe('PodChip eviction ring', () => {
  it('draws the share of tolerationSeconds left and says it in words', () => {
    render(PodChip, { pod: pod({ evictionIn: 75_000, evictionTotal: 300_000 }), onselect: () => {} });
    const timer = screen.getByRole('timer');
    expect(timer.getAttribute('aria-label')).toBe('evicted in 1m15s (tolerationSeconds: 300)');
    const arc = timer.querySelector('circle.arc')!;
    expect(arc.getAttribute('data-share')).toBe('0.250');
    const circ = 2 * Math.PI * 5;
    expect(Number(arc.getAttribute('stroke-dashoffset'))).toBeCloseTo(circ * 0.75, 5);
    // The chip's own name carries the countdown too (a button's content is not read out).
    expect(screen.getByRole('button').getAttribute('aria-label')).toBe(
      'Select pod web-1 (Running), evicted in 1m15s (tolerationSeconds: 300)'
    );
  });

  it('no countdown: no timer and no ring', () => {
    render(PodChip, { pod: pod({}), onselect: () => {} });
    expect(screen.queryByRole('timer')).toBeNull();
    expect(document.querySelector('svg.ring')).toBeNull();
  });

  it('a replacement names the node the pod it replaces left', () => {
    render(PodChip, { pod: pod({ nodeName: 'worker-3' }), from: 'worker-1', onselect: () => {} });
    expect(screen.getByTestId('moved-from').textContent).toBe('← worker-1');
    expect(screen.getByRole('button').getAttribute('aria-label')).toBe(
      'Select pod web-1 (Running), replaces a pod that left worker-1'
    );
  });
});
