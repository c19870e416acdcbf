import { describe, expect, it } from 'vitest';
import { lineDiff } from './diff';
import { syntaxHint } from './syntax';
import { effectKeys } from './effects';

describe('the editor’s YAML hint', () => {
  it('says nothing for an empty buffer or valid YAML', () => {
    expect(syntaxHint('')).toBeUndefined();
    expect(syntaxHint('  \n\n')).toBeUndefined();
    expect(syntaxHint('kind: Pod\nmetadata:\n  name: x\n')).toBeUndefined();
  });

  it('names the parser’s message, its line, and a plain explanation', () => {
    expect(syntaxHint('apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels: app: web\n')).toEqual({
      line: 5,
      message: 'Nested mappings are not allowed in compact mappings',
      indentation: true,
      plain: 'nestedMapping'
    });
    expect(syntaxHint('metadata:\n  name: a\n labels: {}\n')).toEqual({
      line: 3,
      message: 'All mapping items must start at the same column',
      indentation: true,
      plain: 'sameColumn'
    });
    expect(syntaxHint('a: 1\na: 2\n')).toMatchObject({ line: 2, indentation: false, plain: 'uniqueKeys' });
  });
});

describe('the diff before Apply', () => {
  it('shows the changed lines with their context and counts them', () => {
    const before = 'a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\n';
    const after = 'a: 1\nb: 2\nc: 3\nd: 40\ne: 5\nf: 6\ng: 7\n';
    expect(lineDiff(before, after, 1)).toEqual({
      added: 1,
      removed: 1,
      lines: [
        null,
        { op: ' ', text: 'c: 3' },
        { op: '-', text: 'd: 4' },
        { op: '+', text: 'd: 40' },
        { op: ' ', text: 'e: 5' }
      ]
    });
    expect(lineDiff('x\n', 'x\n')).toEqual({ added: 0, removed: 0, lines: [] });
    expect(lineDiff('', 'kind: Pod\n')).toMatchObject({ added: 1, removed: 1 });
  });
});

describe('what happens after the change is stored', () => {
  const dep = (replicas: number, image: string) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: ${replicas}\n  template:\n    spec:\n      containers:\n      - name: nginx\n        image: ${image}\n`;
  it('tells a template change from a scale, and a Node capacity change', () => {
    expect(effectKeys(dep(3, 'nginx:1.27'), dep(3, 'nginx:1.28'))).toEqual(['deploymentTemplate']);
    expect(effectKeys(dep(3, 'nginx:1.27'), dep(5, 'nginx:1.27'))).toEqual(['deploymentReplicas']);
    const node = (cpu: string) =>
      `apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\nstatus:\n  capacity:\n    cpu: "${cpu}"\n`;
    expect(effectKeys(node('4'), node('8'))).toEqual(['nodeCapacity']);
    const cm =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-proxy\n  namespace: kube-system\ndata:\n  config.conf: "mode: ipvs"\n';
    expect(effectKeys('', cm)).toEqual(['kubeProxyConfig']);
  });
});
