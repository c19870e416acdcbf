import { describe, expect, it } from 'vitest';
import { classLink } from './link';

describe('class link', () => {
  const root = 'https://school.example/nodeplane/';
  it('is the plain lesson link for a lesson without a seed', () => {
    expect(classLink(root, { slug: '06-heartbeats' })).toBe(
      'https://school.example/nodeplane/lessons/06-heartbeats'
    );
  });
  it('pins the challenge seed', () => {
    expect(classLink(root, { slug: '12-troubleshooting', seed: 4294967295 })).toBe(
      'https://school.example/nodeplane/lessons/12-troubleshooting?seed=4294967295'
    );
  });
  it('goes through the pack route for a pack lesson', () => {
    expect(classLink(root, { slug: 'intro', seed: 7, pack: { id: 'acme-course' } })).toBe(
      'https://school.example/nodeplane/pack/?pack=acme-course&lesson=intro&seed=7'
    );
  });
});
