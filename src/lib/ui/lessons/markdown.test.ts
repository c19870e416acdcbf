import { describe, expect, it } from 'vitest';
import { bundledLessons } from '$lib/lessons/bundle';
import { parseBody, plainTitle, watchedReasons } from './markdown';

describe('parseBody', () => {
  it('splits lesson 6 into its five steps with their embeds', () => {
    const lesson = bundledLessons().lessons.find((l) => l.slug === '06-heartbeats')!;
    const steps = parseBody(lesson.text.en.body);
    expect(steps.map((s) => s.title)).toEqual([
      "A node's heartbeat",
      'Predict first',
      'Break the heartbeat',
      'Tolerations decide when pods leave',
      'Why Terminating?'
    ]);
    const embeds = steps.map((s) => s.segments.filter((g) => g.kind !== 'markdown'));
    expect(embeds[0]).toEqual([
      { kind: 'command', command: 'kubectl get lease -n kube-node-lease' },
      { kind: 'command', command: 'kubectl describe node worker-2' }
    ]);
    expect(embeds[1]).toEqual([{ kind: 'question', id: 'evict-time' }]);
    expect(embeds[2]).toEqual([
      { kind: 'command', command: 'kubectl apply -f checkout-fast-failover.yaml' },
      { kind: 'command', command: 'ssh worker-2' },
      { kind: 'command', command: 'systemctl stop kubelet' },
      { kind: 'waitfor', task: 'silence' }
    ]);
    expect(embeds[3]).toEqual([
      { kind: 'watch', reasons: ['NodeNotReady', 'TaintManagerEviction'] },
      { kind: 'waitfor', task: 'fast-failover' },
      { kind: 'waitfor', task: 'failover' }
    ]);
    expect(watchedReasons(steps)).toEqual(['NodeNotReady', 'TaintManagerEviction']);
    // A plain code block stays Markdown, fences included.
    expect(steps[3].segments[0]).toMatchObject({ kind: 'markdown' });
    expect((steps[3].segments[0] as { text: string }).text).toContain(
      '```\nnode.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n```'
    );
  });

  it('keeps a heading inside a code fence in its step, and text before the first heading as a step', () => {
    const steps = parseBody(
      'Intro\n\n```yaml\n## not a step\n```\n## One\nText\n```command\nkubectl get pods\n```\n'
    );
    expect(steps).toEqual([
      { title: '', segments: [{ kind: 'markdown', text: 'Intro\n\n```yaml\n## not a step\n```' }] },
      {
        title: 'One',
        segments: [
          { kind: 'markdown', text: 'Text' },
          { kind: 'command', command: 'kubectl get pods' }
        ]
      }
    ]);
  });

  it('reads a command from the block body when the fence line has none', () => {
    expect(parseBody('```command\nkubectl get nodes -o wide\n```')[0].segments).toEqual([
      { kind: 'command', command: 'kubectl get nodes -o wide' }
    ]);
  });

  it('strips Markdown marks from a title', () => {
    expect(plainTitle('Why `Terminating`? *Really*')).toBe('Why Terminating? Really');
  });
});
