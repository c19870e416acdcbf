import { fireEvent, render, screen } from '@testing-library/svelte';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { tick } from 'svelte';
import { loadLesson } from '$lib/lessons/loader';
import type { EventLogEntry } from '$lib/sim/events/recorder';
import { renderInline, renderMarkdown } from './markdown';
import Markdown from './Markdown.svelte';
import QuestionEmbed from './QuestionEmbed.svelte';
import CommandEmbed from './CommandEmbed.svelte';
import WatchEmbed from './WatchEmbed.svelte';

const FIXTURE = 'tests/fixtures/lessons/01-fixture';
const fixture = () =>
  loadLesson(
    FIXTURE,
    Object.fromEntries(readdirSync(FIXTURE).map((f) => [f, readFileSync(`${FIXTURE}/${f}`, 'utf8')]))
  );

describe('lesson Markdown', () => {
  it('renders Markdown and drops what a hostile lesson pack could inject', () => {
    const html = renderMarkdown(
      '# T\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[link](javascript:alert(1))\n\n<style>body{}</style>\n\n`code`'
    );
    expect(html).toContain('<h1>T</h1>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<a>link</a>');
    expect(html).not.toMatch(/<script|onerror|javascript:|<style/);
  });

  it('renders inline text without block elements or images', () => {
    expect(renderInline('Run `kubectl get pods` **now** <img src=x>')).toBe(
      'Run <code>kubectl get pods</code> <strong>now</strong> '
    );
  });

  it('shows the text once mounted', async () => {
    const { container } = render(Markdown, { text: 'Hello **world**' });
    await tick();
    expect(container.querySelector('.md')?.innerHTML).toContain('<strong>world</strong>');
  });
});

describe('question embed', () => {
  it('a number question: labelled input, the answer as a number, the lesson’s feedback', async () => {
    const lesson = fixture();
    const onanswer = vi.fn((v: string | number) => v === 50);
    render(QuestionEmbed, {
      spec: lesson.spec.spec.questions![0],
      text: lesson.text.en.questions!.grace,
      ready: true,
      onanswer
    });
    const input = screen.getByLabelText('Your answer');
    expect(input).toHaveAccessibleDescription('How many seconds until Unknown?');
    await fireEvent.input(input, { target: { value: '40' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(onanswer).toHaveBeenLastCalledWith(40);
    expect(screen.getByRole('status')).toHaveTextContent('Not quite. No');
    await fireEvent.input(input, { target: { value: '50' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByRole('status')).toHaveTextContent('Correct. Right');
  });

  it('a choice question: a group named by its prompt, one radio per option', async () => {
    const onanswer = vi.fn(() => true);
    render(QuestionEmbed, {
      spec: { id: 'q', type: 'choice', options: ['a', 'b'], answer: 'b' },
      text: { prompt: 'Which?', options: { a: 'First', b: 'Second' }, correct: 'Yes', incorrect: 'No' },
      ready: true,
      onanswer
    });
    const group = screen.getByRole('group', { name: 'Which?' });
    expect(group).toBeInTheDocument();
    await fireEvent.click(screen.getByRole('radio', { name: 'Second' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(onanswer).toHaveBeenCalledWith('b');
  });

  it('a decision: an option and reasons, and how each picked reason weighs after the check', async () => {
    const onanswer = vi.fn((v: string | number) => v === 'managed:a,b');
    render(QuestionEmbed, {
      spec: {
        id: 'd',
        type: 'decision',
        answer: '',
        options: ['managed', 'self'],
        reasons: { a: ['managed'], b: ['managed'], c: ['self'], f: [] },
        minReasons: 2
      },
      text: {
        prompt: 'Which cluster?',
        options: { managed: 'Managed', self: 'Self-managed' },
        reasons: {
          a: { text: 'No etcd to run', why: 'the provider runs it' },
          b: { text: 'Small team', why: 'nobody on call' },
          c: { text: 'Custom flags', why: 'only your own API server takes them' },
          f: { text: 'No node work', why: 'nodes stay yours' }
        },
        correct: 'Sound.',
        incorrect: 'Not yet.'
      },
      ready: true,
      onanswer
    });
    expect(screen.getByRole('group', { name: 'Your choice' })).toBeInTheDocument();
    await fireEvent.click(screen.getByRole('radio', { name: 'Managed' }));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'No etcd to run' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    // One reason is too few: nothing is sent.
    expect(onanswer).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('Give at least 2 reasons.');
    await fireEvent.click(screen.getByRole('checkbox', { name: 'No node work' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(onanswer).toHaveBeenLastCalledWith('managed:a,f');
    await tick();
    const weighs = screen.getByRole('list', { name: 'How your reasons weigh' });
    expect(weighs).toHaveTextContent('No etcd to run (weighs for your choice): the provider runs it');
    expect(weighs).toHaveTextContent('No node work (not true): nodes stay yours');
    await fireEvent.click(screen.getByRole('checkbox', { name: 'No node work' }));
    await fireEvent.click(screen.getByRole('checkbox', { name: 'Small team' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(onanswer).toHaveBeenLastCalledWith('managed:a,b');
    await tick();
    expect(screen.getByRole('status')).toHaveTextContent('Sound.');
  });

  it('waits for the lab before it can be checked', () => {
    const lesson = fixture();
    render(QuestionEmbed, {
      spec: lesson.spec.spec.questions![0],
      text: lesson.text.en.questions!.grace,
      ready: false,
      onanswer: () => true
    });
    expect(screen.getByRole('button', { name: 'Check' })).toBeDisabled();
    expect(screen.getByText('The lab is still starting…')).toBeInTheDocument();
  });
});

describe('command and watch embeds', () => {
  it('a command button is labelled with its command and runs it', async () => {
    const onrun = vi.fn();
    render(CommandEmbed, { command: 'kubectl get nodes', onrun });
    await fireEvent.click(screen.getByRole('button', { name: 'Run in the console: kubectl get nodes' }));
    expect(onrun).toHaveBeenCalledWith('kubectl get nodes');
  });

  it('a watch lists only its reasons, latest last, with counts', () => {
    const ev = (t: number, reason: string, object: string, message: string): EventLogEntry => ({
      t,
      type: 'Normal',
      reason,
      object,
      message,
      source: 'node-controller',
      count: 1
    });
    // `events` is also a mount option, so the props go in `props`.
    render(WatchEmbed, {
      props: {
        reasons: ['NodeNotReady', 'TaintManagerEviction'],
        now: 400_000,
        events: [
          ev(95_000, 'NodeNotReady', 'Pod/default/web-1', 'Node is not ready'),
          ev(96_000, 'Scheduled', 'Pod/default/web-9', 'Successfully assigned'),
          ev(395_000, 'TaintManagerEviction', 'Pod/default/web-1', 'Marking for deletion Pod default/web-1')
        ]
      }
    });
    expect(screen.getByText('NodeNotReady ×1')).toBeInTheDocument();
    expect(screen.getByText('TaintManagerEviction ×1')).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      '1m35s NodeNotReady Pod/default/web-1 Node is not ready',
      '6m35s TaintManagerEviction Pod/default/web-1 Marking for deletion Pod default/web-1'
    ]);
    expect(screen.getByRole('img')).toHaveAccessibleName('Virtual time, 0 to 6m40s');
  });
});
