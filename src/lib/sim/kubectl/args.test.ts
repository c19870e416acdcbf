/**
 * kubectl's root flags before the verb, found as cobra finds the subcommand
 * (upstream: spf13/cobra command.go stripFlags and Find; kubectl's persistent flags from
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/config_flags.go).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCluster } from '../scenario';
import { ConsoleSession } from './console';
import { findVerb } from './args';

function con() {
  const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'), {
    fileName: 'three-nodes.yaml'
  });
  cluster.runUntil(10_000);
  return new ConsoleSession(cluster);
}

describe('findVerb', () => {
  it('skips root flags and their values', () => {
    expect(findVerb(['-n', 'kube-system', 'get', 'ds'])).toBe(2);
    expect(findVerb(['--namespace=x', 'get', 'pods'])).toBe(1);
    expect(findVerb(['--namespace', 'x', 'get'])).toBe(2);
    expect(findVerb(['--insecure-skip-tls-verify', 'get'])).toBe(1);
    expect(findVerb(['-v=6', '--request-timeout=5s', 'get'])).toBe(2);
    // -A is get's flag, not the root's: cobra takes the next word as its value.
    expect(findVerb(['-A', 'get', 'pods'])).toBe(2);
    expect(findVerb(['get', '-A', 'pods'])).toBe(0);
  });
});

describe('kubectl with flags before the verb', () => {
  it('-n, --namespace=, --namespace, --context, --kubeconfig, -v, --request-timeout', () => {
    const c = con();
    const ds = c.exec('kubectl get ds -n kube-system').stdout;
    expect(ds).toMatch(/^NAME {10}DESIRED/);
    expect(c.exec('kubectl -n kube-system get ds').stdout).toBe(ds);
    expect(c.exec('kubectl --namespace=kube-system get ds').stdout).toBe(ds);
    expect(c.exec('kubectl --namespace kube-system get ds').stdout).toBe(ds);
    const nodes = c.exec('kubectl get nodes').stdout;
    expect(
      c.exec(
        'kubectl --context kubernetes-admin@kubernetes --kubeconfig /etc/kubernetes/admin.conf -v=6 --request-timeout=5s get nodes'
      ).stdout
    ).toBe(nodes);
    expect(c.exec('kubectl get -A pods').stdout).toMatch(/^NAMESPACE {5}NAME/);
  });

  it('-A before the verb swallows it, as cobra does', () => {
    expect(con().exec('kubectl -A get pods')).toEqual({
      stdout: '',
      stderr: 'error: unknown command "pods" for "kubectl"\n\nDid you mean this?\n\tlogs\n\n',
      exitCode: 1
    });
  });

  it('unknown flags are worded as kubectl words them', () => {
    const c = con();
    expect(c.exec('kubectl --foo')).toEqual({
      stdout: '',
      stderr: "error: unknown flag: --foo\nSee 'kubectl --help' for usage.\n",
      exitCode: 1
    });
    expect(c.exec('kubectl -z')).toEqual({
      stdout: '',
      stderr: "error: unknown shorthand flag: 'z' in -z\nSee 'kubectl --help' for usage.\n",
      exitCode: 1
    });
    expect(c.exec('kubectl get pods --foo').stderr).toBe(
      "error: unknown flag: --foo\nSee 'kubectl get --help' for usage.\n"
    );
  });

  it('a lesson that disables a verb refuses it after root flags too', () => {
    const { cluster } = createCluster(readFileSync('scenarios/three-nodes.yaml', 'utf8'), {
      fileName: 'three-nodes.yaml'
    });
    const c = new ConsoleSession(cluster, {
      disabled: (argv) => (argv[1] === 'delete' ? 'This lesson disables kubectl delete.' : undefined)
    });
    expect(c.exec('kubectl -n default delete pod x')).toEqual({
      stdout: '',
      stderr: 'This lesson disables kubectl delete.\n',
      exitCode: 1
    });
  });
});
