import { describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster';
import { ConsoleSession } from '../console';
import { PrefixWriter, annotationsMultiline, taintsMultiline, tolerationsMultiline } from './writer';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        resources:
          requests: {cpu: 100m}
      tolerations:
      - key: dedicated
        operator: Equal
        value: gpu
        effect: NoSchedule
`;

describe('describe sections', () => {
  it('long and multi-line annotations go below their key; last-applied is skipped', () => {
    const w = new PrefixWriter();
    annotationsMultiline(w, 'Annotations', {
      'kubectl.kubernetes.io/last-applied-configuration': '{}\n',
      'example.com/long': 'x'.repeat(150),
      'example.com/short': 'v'
    });
    expect(w.toString()).toBe(
      `Annotations:  example.com/long:\n                ${'x'.repeat(138)}...\n              example.com/short: v\n`
    );
  });
  it('taints sort by effect then key; tolerations by key with op=Exists and seconds', () => {
    const w = new PrefixWriter();
    taintsMultiline(w, 'Taints', [
      { key: 'b', effect: 'NoSchedule' },
      { key: 'a', value: '1', effect: 'NoSchedule' },
      { key: 'z', effect: 'NoExecute' }
    ]);
    tolerationsMultiline(w, 'Tolerations', [
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300
      },
      { operator: 'Exists' },
      { key: 'gpu', operator: 'Equal', value: 'yes', effect: 'NoSchedule' }
    ]);
    expect(w.toString()).toBe(
      'Taints:       z:NoExecute\n' +
        '              a=1:NoSchedule\n' +
        '              b:NoSchedule\n' +
        'Tolerations:  op=Exists\n' +
        '              gpu=yes:NoSchedule\n' +
        '              node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n'
    );
  });
});

describe('kubectl describe deployment and service', () => {
  it('lays out the deployment with its pod template', () => {
    const s = new ConsoleSession(new Cluster(), { files: { 'd.yaml': DEPLOY } });
    expect(s.exec('kubectl apply -f d.yaml').stdout).toBe('deployment.apps/web created\n');
    expect(s.exec('kubectl describe deployment web').stdout).toBe(
      [
        'Name:                   web',
        'Namespace:              default',
        'CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000',
        'Labels:                 <none>',
        'Annotations:            <none>',
        'Selector:               app=web',
        'Replicas:               2 desired | 0 updated | 0 total | 0 available | 0 unavailable',
        'StrategyType:           RollingUpdate',
        'MinReadySeconds:        0',
        'RollingUpdateStrategy:  25% max unavailable, 25% max surge',
        'Pod Template:',
        '  Labels:  app=web',
        '  Containers:',
        '   web:',
        '    Image:      nginx:1.27',
        '    Port:       <none>',
        '    Host Port:  <none>',
        '    Requests:',
        '      cpu:         100m',
        '    Environment:   <none>',
        '    Mounts:        <none>',
        '  Volumes:         <none>',
        '  Node-Selectors:  <none>',
        '  Tolerations:     dedicated=gpu:NoSchedule',
        'OldReplicaSets:    <none>',
        'NewReplicaSet:     <none>',
        'Events:            <none>',
        ''
      ].join('\n')
    );
  });
  it('prefix-matches names and reports missing objects', () => {
    const s = new ConsoleSession(new Cluster(), { files: { 'd.yaml': DEPLOY } });
    s.exec('kubectl apply -f d.yaml');
    expect(s.exec('kubectl describe deploy we').stdout.split('\n')[0]).toBe('Name:                   web');
    expect(s.exec('kubectl describe deploy nope')).toEqual({
      stdout: '',
      stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n',
      exitCode: 1
    });
    expect(s.exec('kubectl describe nodes')).toEqual({
      stdout: '',
      stderr: 'No resources found\n',
      exitCode: 0
    });
  });
});
