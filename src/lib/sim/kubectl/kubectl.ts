/** `kubectl <verb> …`: dispatch to the verbs, turn thrown errors into kubectl's stderr lines. */
import { SelectorError } from '../api/selectors';
import { findVerb, parseFlags, ParseError, ROOT_FLAGS } from './args';
import type { ConsoleResult } from './console';
import { CommandError, errorText, type KubectlContext } from './context';
import { describe } from './describe';
import { apply, create } from './commands/apply';
import { edit } from './commands/edit';
import { drain } from './commands/drain';
import { explain } from './commands/explain';
import { get } from './commands/get';
import { apiResources, auth, clusterInfo, events, version } from './commands/info';
import { logs } from './commands/logs';
import { annotate, cordon, deleteCmd, label, scale, taint } from './commands/modify';
import { rollout } from './commands/rollout';
import { top } from './commands/top';

type Verb = (ctx: KubectlContext, argv: string[]) => ConsoleResult;

export const VERBS: Record<string, Verb> = {
  get,
  describe,
  apply,
  create,
  delete: deleteCmd,
  edit,
  cordon: (ctx, a) => cordon(ctx, a, true),
  uncordon: (ctx, a) => cordon(ctx, a, false),
  drain,
  taint,
  label,
  annotate,
  scale,
  rollout,
  top,
  logs,
  events,
  explain,
  version,
  'cluster-info': (ctx) => clusterInfo(ctx),
  'api-resources': apiResources,
  auth
};

export const KUBECTL_HELP = `kubectl controls the simulated Kubernetes cluster.

Basic Commands:
  create          Create objects from a file (-f) or the editor buffer (-f -)
  get             Display one or many resources (-o wide|yaml|json|name|jsonpath=|custom-columns=, -w, --sort-by)
  edit            Open an object in the editor
  delete          Delete resources (--grace-period, --force)
  explain         Documentation of the simulated fields

Deploy Commands:
  rollout         status, restart or undo a Deployment or DaemonSet rollout
  scale           Set a new size for a Deployment or ReplicaSet

Cluster Management Commands:
  cluster-info    Display the control plane address
  top             CPU and memory of nodes or pods
  cordon          Mark a node as unschedulable
  uncordon        Mark a node as schedulable
  drain           Evict the pods of a node (--ignore-daemonsets, --delete-emptydir-data, --force, --grace-period)
  taint           Add (key=value:Effect) or remove (key:Effect-) node taints

Troubleshooting and Debugging Commands:
  describe        Show details of a resource with its events
  logs            Print the logs of a container in a pod (-c, -f, -p, --tail)
  events          List events

Advanced Commands:
  apply           Apply a configuration from a file (-f) or the editor buffer (-f -)

Settings Commands:
  label           Update the labels on a resource
  annotate        Update the annotations on a resource

Other Commands:
  api-resources   Print the supported API resources
  auth can-i      Always answers yes: Nodeplane simulates no RBAC
  version         Print the client and server version information
`;

export function kubectl(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const at = findVerb(argv);
  if (at < 0) {
    // No verb: the root command parses its own flags, then prints its help.
    if (!argv.includes('-h') && !argv.includes('--help')) {
      try {
        parseFlags(argv, ROOT_FLAGS, true);
      } catch (e) {
        if (e instanceof ParseError)
          return {
            stdout: '',
            stderr: `error: ${e.message}\nSee 'kubectl --help' for usage.\n`,
            exitCode: 1
          };
        throw e;
      }
    }
    return { stdout: KUBECTL_HELP, stderr: '', exitCode: 0 };
  }
  const verb = argv[at];
  const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
  if (verb === 'help') return { stdout: KUBECTL_HELP, stderr: '', exitCode: 0 };
  const refused = ctx.options.disabled?.(['kubectl', verb, ...rest]);
  if (refused) return { stdout: '', stderr: refused.endsWith('\n') ? refused : refused + '\n', exitCode: 1 };
  const run = VERBS[verb];
  if (!run) {
    const close = suggest(verb);
    const hint = close ? `\n\nDid you mean this?\n${close}\n` : '\n';
    return { stdout: '', stderr: `error: unknown command "${verb}" for "kubectl"${hint}`, exitCode: 1 };
  }
  const { result, warnings } = ctx.cluster.api.collectWarnings(() => runVerb(ctx, verb, run, rest));
  // client-go's warning handler (deduplicating) prints each server warning on stderr as it arrives.
  if (!warnings.length) return result;
  return { ...result, stderr: warnings.map((w) => `Warning: ${w}\n`).join('') + result.stderr };
}

function runVerb(
  ctx: KubectlContext,
  verb: string,
  run: (ctx: KubectlContext, argv: string[]) => ConsoleResult,
  rest: string[]
): ConsoleResult {
  try {
    return run(ctx, rest);
  } catch (e) {
    if (e instanceof ParseError) {
      return {
        stdout: '',
        stderr: `error: ${e.message}\nSee 'kubectl ${verb} --help' for usage.\n`,
        exitCode: 1
      };
    }
    if (e instanceof SelectorError) return { stdout: '', stderr: `error: ${e.message}\n`, exitCode: 1 };
    if (e instanceof CommandError) return { stdout: '', stderr: e.message + '\n', exitCode: e.exitCode };
    return { stdout: '', stderr: errorText(e) + '\n', exitCode: 1 };
  }
}

function suggest(verb: string): string {
  const close = Object.keys(VERBS).filter((v) => levenshtein(v, verb) <= 2);
  return close.map((v) => `\t${v}\n`).join('') || '';
}

function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}
