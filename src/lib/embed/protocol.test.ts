import { describe, expect, it } from 'vitest';
import {
  acceptsOrigin,
  embedMessage,
  HOST_MESSAGE_TYPES,
  parseEmbedParams,
  parseHostMessage,
  parseOrigin,
  targetOrigin
} from './protocol';

const host = { source: 'nodeplane-host', version: 1 } as const;

describe('host messages: exactly the documented ones are read', () => {
  it('accepts reset, set-language and set-theme with their documented values', () => {
    expect(parseHostMessage({ ...host, type: 'reset' })).toEqual({ ...host, type: 'reset' });
    for (const lang of ['en', 'ru'])
      expect(parseHostMessage({ ...host, type: 'set-language', lang })).toEqual({
        ...host,
        type: 'set-language',
        lang
      });
    for (const theme of ['light', 'dark', 'system'])
      expect(parseHostMessage({ ...host, type: 'set-theme', theme })).toEqual({
        ...host,
        type: 'set-theme',
        theme
      });
    expect(HOST_MESSAGE_TYPES).toEqual(['reset', 'set-language', 'set-theme']);
  });

  it('returns a fresh object, not the one posted', () => {
    const posted = { ...host, type: 'set-language', lang: 'ru' };
    const read = parseHostMessage(posted);
    expect(read).not.toBe(posted);
    expect(Object.isFrozen(read)).toBe(false);
  });

  const rejected: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['a string of JSON', JSON.stringify({ ...host, type: 'reset' })],
    ['a number', 1],
    ['an array', [host.source, 1, 'reset']],
    ['eval', { ...host, type: 'eval', code: 'alert(1)' }],
    ['run a command', { ...host, type: 'run', command: 'kubectl delete node worker-1' }],
    ['answer a question', { ...host, type: 'answer', id: 'predict', value: 'pending' }],
    ['complete a task', { ...host, type: 'task-completed', task: 'bind' }],
    ['the embed’s own source', { source: 'nodeplane', version: 1, type: 'reset' }],
    ['no source', { version: 1, type: 'reset' }],
    ['version 2', { ...host, version: 2, type: 'reset' }],
    ['version "1"', { ...host, version: '1', type: 'reset' }],
    ['no version', { source: 'nodeplane-host', type: 'reset' }],
    ['no type', { ...host }],
    ['type of another case', { ...host, type: 'RESET' }],
    ['reset with an extra field', { ...host, type: 'reset', seed: 3 }],
    ['set-language to an unknown language', { ...host, type: 'set-language', lang: 'de' }],
    ['set-language with a locale object', { ...host, type: 'set-language', lang: { toString: () => 'ru' } }],
    ['set-language without lang', { ...host, type: 'set-language' }],
    ['set-language with an extra field', { ...host, type: 'set-language', lang: 'ru', theme: 'dark' }],
    ['set-theme to an unknown theme', { ...host, type: 'set-theme', theme: 'solarized' }],
    ['set-theme with a CSS string', { ...host, type: 'set-theme', theme: 'dark; background: red' }],
    ['a prototype key', { ...host, type: '__proto__' }],
    ['constructor as type', { ...host, type: 'constructor' }],
    ['a class instance', Object.assign(Object.create({ evil: true }), { ...host, type: 'reset' })],
    ['a Date', new Date()]
  ];
  for (const [name, data] of rejected)
    it(`ignores ${name}`, () => {
      expect(parseHostMessage(data)).toBeUndefined();
    });

  it('ignores an own __proto__ key smuggled in by JSON.parse', () => {
    const data = JSON.parse('{"source":"nodeplane-host","version":1,"type":"reset","__proto__":{"x":1}}');
    expect(parseHostMessage(data)).toBeUndefined();
  });
});

describe('messages to the host', () => {
  it('wrap the body in the versioned envelope with the lesson slug', () => {
    expect(
      embedMessage('01-cluster-anatomy', {
        type: 'task-completed',
        task: 'bind',
        virtualMs: 21_000,
        done: 2,
        total: 5
      })
    ).toEqual({
      source: 'nodeplane',
      version: 1,
      lesson: '01-cluster-anatomy',
      type: 'task-completed',
      task: 'bind',
      virtualMs: 21_000,
      done: 2,
      total: 5
    });
  });
});

describe('query parameters', () => {
  it('reads lang, theme and parent', () => {
    expect(parseEmbedParams('?lang=ru&theme=dark&parent=https://roadmap.example')).toEqual({
      lang: 'ru',
      theme: 'dark',
      parent: 'https://roadmap.example'
    });
    expect(parseEmbedParams('?theme=system')).toEqual({ theme: 'system' });
  });

  it('ignores unknown values and keys', () => {
    expect(parseEmbedParams('?lang=de&theme=neon&parent=javascript:alert(1)&x=1')).toEqual({});
    expect(parseEmbedParams('?lang=RU&theme=Dark')).toEqual({});
    expect(parseEmbedParams('')).toEqual({});
  });

  it('takes an origin only as location.origin spells it', () => {
    expect(parseOrigin('https://roadmap.example')).toBe('https://roadmap.example');
    expect(parseOrigin('https://roadmap.example/')).toBe('https://roadmap.example');
    expect(parseOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    for (const bad of [
      'https://roadmap.example/path',
      'https://roadmap.example?x=1',
      'https://roadmap.example#top',
      'https://user@roadmap.example',
      'https://roadmap.example:443',
      'ftp://roadmap.example',
      'data:text/html,x',
      'roadmap.example',
      '*',
      'null',
      ''
    ])
      expect(parseOrigin(bad), bad).toBeUndefined();
  });

  it('posts to the named parent only and reads only its messages; without one, any origin', () => {
    const named = parseEmbedParams('?parent=https://roadmap.example');
    expect(targetOrigin(named)).toBe('https://roadmap.example');
    expect(acceptsOrigin(named, 'https://roadmap.example')).toBe(true);
    expect(acceptsOrigin(named, 'https://evil.example')).toBe(false);
    expect(targetOrigin({})).toBe('*');
    expect(acceptsOrigin({}, 'https://anywhere.example')).toBe(true);
  });
});
