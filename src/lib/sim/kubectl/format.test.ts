import { describe, expect, it } from 'vitest';
import { CRICTL, DESCRIBE, GET_TABLE, TabWriter, tabbed } from './tabwriter';
import {
  humanDuration,
  humanSize,
  klogTime,
  rfc1123z,
  systemdAgo,
  systemdTimespan,
  unitsAgo
} from './timefmt';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (apimachinery HumanDuration)', () => {
  it.each([
    [-5 * S, '<invalid>'],
    [-500, '0s'],
    [0, '0s'],
    [59 * S, '59s'],
    [103 * S, '103s'],
    [119 * S, '119s'],
    [2 * M, '2m'],
    [5 * M + 50 * S, '5m50s'],
    [9 * M + 59 * S, '9m59s'],
    [23 * M, '23m'],
    [112 * M, '112m'],
    [3 * H, '3h'],
    [7 * H + 42 * M, '7h42m'],
    [25 * H, '25h'],
    [2 * D + 14 * H, '2d14h'],
    [5 * D, '5d'],
    [44 * D, '44d'],
    [2 * 365 * D + 3 * D, '2y3d'],
    [9 * 365 * D, '9y']
  ])('%i ms → %s', (ms, want) => expect(humanDuration(ms)).toBe(want));
});

describe('other time and size formats', () => {
  it('describe timestamps are RFC1123Z in UTC', () => {
    expect(rfc1123z('2026-01-01T00:05:50Z')).toBe('Thu, 01 Jan 2026 00:05:50 +0000');
    expect(rfc1123z(Date.UTC(2026, 1, 17, 17, 13, 9))).toBe('Tue, 17 Feb 2026 17:13:09 +0000');
  });
  it.each([
    [500, 'Less than a second ago'],
    [1 * S, '1 second ago'],
    [45 * S, '45 seconds ago'],
    [90 * S, 'About a minute ago'],
    [7 * M, '7 minutes ago'],
    [65 * M, 'About an hour ago'],
    [17 * H, '17 hours ago'],
    [2 * D, '2 days ago']
  ])('crictl CREATED %i ms → %s', (ms, want) => expect(unitsAgo(ms)).toBe(want));
  it.each([
    [2_220_000, '2.22MB'],
    [72_300_000, '72.3MB'],
    [115_000_000, '115MB'],
    [742_000, '742kB'],
    [999, '999B']
  ])('crictl SIZE %i → %s', (b, want) => expect(humanSize(b)).toBe(want));
  it.each([
    [8 * S, '8s ago'],
    [5 * M, '5min ago'],
    [3 * M + 4 * S, '3min 4s ago'],
    [H + 5 * M, '1h 5min ago'],
    [3 * D, '3 days ago']
  ])('systemd relative %i ms → %s', (ms, want) => expect(systemdAgo(ms)).toBe(want));
  it('systemd timespans and klog headers', () => {
    expect(systemdTimespan(5 * M + 12_345)).toBe('5min 12.345s');
    expect(systemdTimespan(2 * H + 3 * M)).toBe('2h 3min');
    expect(klogTime(Date.UTC(2026, 0, 8, 22, 10, 18, 971))).toBe('0108 22:10:18.971000');
  });
});

describe('TabWriter (Go text/tabwriter)', () => {
  it('get tables: cell + 3 spaces, minwidth 6, last column unpadded', () => {
    const out = tabbed('NAME\tSTATUS\tAGE\nab\tReady\t5m\n', GET_TABLE);
    expect(out).toBe('NAME   STATUS   AGE\nab     Ready    5m\n');
  });
  it('minwidth shows only for short columns', () => {
    expect(tabbed('A\tB\nx\ty\n', GET_TABLE)).toBe('A     B\nx     y\n');
  });
  it('trailing empty cells are padded', () => {
    expect(tabbed('a\tb\t\n', GET_TABLE)).toBe('a     b     \n');
  });
  it('describe: alignment per block of tabbed lines', () => {
    const out = tabbed('Name:\tx\nLongerLabel:\ty\nSection:\n  a:\t1\n  bb:\t2\n', DESCRIBE);
    expect(out).toBe('Name:         x\nLongerLabel:  y\nSection:\n  a:   1\n  bb:  2\n');
  });
  it('a double tab makes an empty column', () => {
    expect(tabbed('Namespace\tName\t\tCPU\nkube-system\tx\t\t1\n', DESCRIBE)).toBe(
      'Namespace    Name    CPU\nkube-system  x       1\n'
    );
  });
  it('crictl columns are at least 20 wide', () => {
    expect(tabbed('POD ID\tCREATED\tSTATE\n', CRICTL)).toBe(
      'POD ID              CREATED             STATE\n'
    );
  });
  it('RememberWidths: later flushes never narrow a column, wider cells widen it', () => {
    const w = new TabWriter(GET_TABLE);
    expect(w.write('NAME\tSTATUS\tAGE\nn1\tReady\t5m\n').take()).toBe(
      'NAME   STATUS   AGE\nn1     Ready    5m\n'
    );
    expect(w.write('n1\tNotReady,SchedulingDisabled\t6m\n').take()).toBe(
      'n1     NotReady,SchedulingDisabled   6m\n'
    );
    expect(w.write('n2\tReady\t7m\n').take()).toBe('n2     Ready                         7m\n');
  });
});
