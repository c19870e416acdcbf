import { describe, expect, it } from 'vitest';
import { initialLifecycle, stepLifecycle } from './kubelet';

describe('kubelet lifecycle machine', () => {
  it('goes stopped → starting → registering → running and back to stopped', () => {
    let s = initialLifecycle();
    s = stepLifecycle(s, { type: 'START', at: 1_000 });
    expect(s).toEqual({ value: 'starting', context: { starts: 1, since: 1_000 } });
    s = stepLifecycle(s, { type: 'REGISTER' });
    expect(s.value).toBe('registering');
    s = stepLifecycle(s, { type: 'REGISTERED' });
    expect(s.value).toBe('running');
    s = stepLifecycle(s, { type: 'STOP', at: 5_000 });
    expect(s).toEqual({ value: 'stopped', context: { starts: 1, since: 5_000 } });
  });

  it('ignores events that do not apply (stop when stopped, register while running)', () => {
    const stopped = initialLifecycle();
    expect(stepLifecycle(stopped, { type: 'STOP', at: 9 })).toEqual(stopped);
    let s = stepLifecycle(stopped, { type: 'START', at: 1 });
    s = stepLifecycle(stepLifecycle(s, { type: 'REGISTER' }), { type: 'REGISTERED' });
    expect(stepLifecycle(s, { type: 'REGISTER' })).toEqual(s);
    expect(stepLifecycle(s, { type: 'START', at: 2 })).toEqual(s);
  });
});
