/**
 * The pipe filters, checked against what GNU grep 3.11, coreutils 9.4 and awk print for the same
 * input (upstream: grep src/grep.c option table and usage(); coreutils head.c, tail.c, wc.c).
 */
import { describe, expect, it } from 'vitest';
import type { ConsoleResult } from './console';
import { applyPipe, grepRegex, splitPipes } from './pipes';
import { splitWords } from './args';

const TEXT = `NAME       STATUS     ROLES    AGE   VERSION
worker-1   Ready      <none>   10m   v1.35.0
worker-2   NotReady   <none>   10m   v1.35.0
worker-3   Ready      <none>   10m   v1.35.0
gpu-1      Ready      <none>   2m    v1.35.0
`;

const input: ConsoleResult = { stdout: TEXT, stderr: '', exitCode: 0 };
const pipe = (cmd: string) => applyPipe(input, splitWords(cmd));

describe('grep', () => {
  it('-i -v -c -n, combined as -in, -vc', () => {
    expect(pipe('grep -in notready').stdout).toBe('3:worker-2   NotReady   <none>   10m   v1.35.0\n');
    expect(pipe('grep -vc Ready')).toMatchObject({ stdout: '1\n', exitCode: 0 });
    expect(pipe('grep -c worker').stdout).toBe('3\n');
    expect(pipe('grep -v worker').stdout).toBe(
      'NAME       STATUS     ROLES    AGE   VERSION\ngpu-1      Ready      <none>   2m    v1.35.0\n'
    );
  });

  it('-w matches whole words only; -E is extended, the default basic', () => {
    expect(pipe('grep -w Ready').stdout.split('\n').filter(Boolean).length).toBe(3);
    expect(pipe("grep -E 'worker-(2|3)'").stdout.split('\n')[0]).toMatch(/^worker-2/);
    // In a basic regular expression ( and | are literal characters.
    expect(pipe("grep 'worker-(2|3)'")).toMatchObject({ stdout: '', exitCode: 1 });
    expect(pipe("grep 'worker-\\(2\\|3\\)' -c").stdout).toBe('2\n');
    expect(grepRegex('a+b\\{2\\}[[:digit:]]', false)).toBe('a\\+b{2}[0-9]');
  });

  it('context: -A N, -B N, -C N, -A2, with -- between groups and - after line numbers', () => {
    expect(pipe('grep -A1 -n worker-1').stdout).toBe(
      '2:worker-1   Ready      <none>   10m   v1.35.0\n3-worker-2   NotReady   <none>   10m   v1.35.0\n'
    );
    expect(pipe('grep -B 1 gpu').stdout).toBe(
      'worker-3   Ready      <none>   10m   v1.35.0\ngpu-1      Ready      <none>   2m    v1.35.0\n'
    );
    expect(pipe('grep -nC0 -e NAME -e worker-3').stdout).toBe(
      '1:NAME       STATUS     ROLES    AGE   VERSION\n--\n4:worker-3   Ready      <none>   10m   v1.35.0\n'
    );
  });

  it('unknown options fail as GNU grep does (exit 2), never silently', () => {
    expect(pipe('grep -z Ready')).toEqual({
      stdout: '',
      stderr:
        "grep: invalid option -- 'z'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
      exitCode: 2
    });
    expect(pipe('grep --frobnicate x').stderr.split('\n')[0]).toBe(
      "grep: unrecognized option '--frobnicate'"
    );
    expect(pipe('grep -A')).toMatchObject({
      stderr:
        "grep: option requires an argument -- 'A'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
      exitCode: 2
    });
    expect(pipe('grep -A x y')).toMatchObject({
      stderr: 'grep: x: invalid context length argument\n',
      exitCode: 2
    });
    expect(pipe('grep')).toMatchObject({
      stderr: "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
      exitCode: 2
    });
  });
});

describe('head, tail, wc, sort, uniq, awk', () => {
  it('head -n N, head -N, tail -n N, tail -n +N', () => {
    expect(pipe('head -n 1').stdout).toBe('NAME       STATUS     ROLES    AGE   VERSION\n');
    expect(pipe('head -2').stdout.split('\n').length).toBe(3);
    expect(pipe('tail -n 1').stdout).toBe('gpu-1      Ready      <none>   2m    v1.35.0\n');
    expect(pipe('tail -n +5').stdout).toBe('gpu-1      Ready      <none>   2m    v1.35.0\n');
    expect(pipe('tail -x')).toMatchObject({
      stderr: "tail: invalid option -- 'x'\nTry 'tail --help' for more information.\n",
      exitCode: 1
    });
  });

  it('wc -l prints the bare count; wc alone prints lines, words and bytes', () => {
    expect(pipe('wc -l').stdout).toBe('5\n');
    expect(pipe('wc').stdout).toBe('      5      25     225\n');
  });

  it("sort, uniq -c and awk '{print $1}'", () => {
    expect(applyPipe(pipe("awk '{print $2}'"), ['sort']).stdout).toBe(
      'NotReady\nReady\nReady\nReady\nSTATUS\n'
    );
    const counted = applyPipe(applyPipe(pipe("awk 'NR>1 {print $2}'"), ['sort']), ['uniq', '-c']);
    expect(counted.stdout).toBe('      1 NotReady\n      3 Ready\n');
    expect(pipe("awk '{print $1, $NF}'").stdout.split('\n')[1]).toBe('worker-1 v1.35.0');
    expect(pipe("awk '/gpu/'").stdout).toBe('gpu-1      Ready      <none>   2m    v1.35.0\n');
    expect(pipe('sort -k2 -r').stdout.split('\n')[0]).toBe('worker-3   Ready      <none>   10m   v1.35.0');
  });

  it('an unknown filter is a bash error', () => {
    expect(pipe('jq .')).toEqual({ stdout: '', stderr: 'bash: jq: command not found\n', exitCode: 127 });
  });
});

describe('splitPipes', () => {
  it('splits on | outside quotes and drops a # comment', () => {
    expect(splitPipes("kubectl get pods | grep 'a|b' # note | x")).toEqual([
      'kubectl get pods ',
      " grep 'a|b' "
    ]);
    expect(splitWords("sudo mv /a /root/  # on etcd-0's host")).toEqual(['sudo', 'mv', '/a', '/root/']);
  });
});
