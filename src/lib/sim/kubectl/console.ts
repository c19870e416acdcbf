/**
 * The console: a kubectl-like command line plus `ssh <node>` into a node shell.
 * This file defines the contract the UI and the CLI use and implements the session: history,
 * completion, pipes (`| grep`, `| head`, `| tail`, `| wc`, `| sort`, `| awk` …), ssh (a login shell or one
 * command) and the node-shell mode.
 */
import { renderTrace, trace, type TraceResult } from '../network/trace';
import { loadServices } from '../load/services';
import type { Cluster } from '../cluster';
import { lookupResource, RESOURCES } from '../api/resources';
import { ParseError, splitWords } from './args';
import { kubectl, KUBECTL_HELP, VERBS } from './kubectl';
import { knownHost, shellHost } from '../node/shell/host';
import { isDir, listDir, nodeFiles } from '../node/shell/files';
import { NODE_COMMANDS, runOnNode } from '../node/shell/shell';
import type { Language } from '../../lessons/format';
import { applyPipe, splitPipes } from './pipes';
import type { EditTarget } from './commands/edit';
import { parseSsh } from '../node/shell/ssh';
import { isControlPlaneHostName, managedHostNote } from '../controlplane/managed';

/** `sudo -i`, `sudo -s`, `sudo su [-]`, `su [-]`: a root shell opened on top of the login. */
function rootShell(argv: string[]): boolean {
  const w = argv.join(' ');
  return /^(sudo (-i|-s|-is|--login|--shell|su( -| root| - root)?)|su( -| root| - root)?)$/.test(w);
}

export interface ConsoleAction {
  /** `kubectl edit` opens the object in the editor; `clear` clears the screen. */
  type: 'edit' | 'clear';
  yaml?: string;
  /** The object `kubectl edit` opened. */
  ref?: EditTarget;
}

export interface WatchHandle {
  /** New output since the last poll (call after the clock advances). */
  poll(): string;
  stop(): void;
}

export interface ConsoleResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  watch?: WatchHandle;
  action?: ConsoleAction;
  /** `nodeplane trace`: the path it printed, for views that draw it. */
  trace?: TraceResult;
}

export interface ConsoleOptions {
  /** Named files `kubectl apply -f <name>` can read (lesson files, the editor buffer as "-"). */
  files?: Record<string, string>;
  /** Text of the editor buffer, for `kubectl apply -f -` style use from the UI. */
  editorBuffer?: () => string | undefined;
  /** Lessons can disable commands: return a message to refuse `argv`, or undefined to allow. */
  disabled?: (argv: string[]) => string | undefined;
  /** The learner's language, for the console's own help (the tools' output stays theirs). */
  lang?: () => Language;
}

const TOP_COMMANDS = ['kubectl', 'ssh', 'node-shell', 'nodeplane', 'clear', 'help', 'history'];

const CONSOLE_TEXT: Record<Language, string> = {
  en: `Nodeplane console. Commands:
  kubectl <verb> ...      talk to the simulated cluster (kubectl help lists the verbs)
  ssh <node>              open a shell on a node as root (also: node-shell <node>); exit leaves
  ssh <node> <command>    run one command on the node and come back (ssh worker-1 crictl ps)
  ssh user@<node>         log in as user (prompt $); sudo <command> or sudo -i for root
  nodeplane trace <from> <to>
                          trace a connection through kube-proxy's rules and the CNI:
                          from = [ns/]pod or external[:ip], to = ip:port or service[.ns]:port
  nodeplane load services <N> --selector app=web
                          bring the load Services (load-1 … load-N) selecting those pods to N,
                          as clusterloader2 or kube-burner would on a real cluster
  clear                   clear the screen
  history                 list earlier commands (Up/Down recall them, Tab completes)
  help                    this list

Pipes: | grep [-i -v -c -n -o -w -x -E -F] [-A N -B N -C N] PATTERN, | head [-n N],
       | tail [-n N], | wc [-l], | sort [-r -n -u -k N], | uniq [-c], | awk '{print $1}'
kubectl takes its root flags before the verb too: kubectl -n kube-system get ds
Ctrl-C stops a watch (kubectl get -w, logs -f, journalctl -f, rollout status).
kubectl auth can-i always answers yes: Nodeplane simulates no RBAC.

`,
  ru: `Консоль Nodeplane. Команды:
  kubectl <команда> ...   работа с симулируемым кластером (kubectl help — список команд)
  ssh <узел>              открыть оболочку на узле от root (или node-shell <узел>); exit — выйти
  ssh <узел> <команда>    выполнить одну команду на узле и вернуться (ssh worker-1 crictl ps)
  ssh user@<узел>         войти как user (приглашение $); sudo <команда> или sudo -i — root
  nodeplane trace <откуда> <куда>
                          проследить соединение через правила kube-proxy и CNI:
                          откуда = [ns/]pod или external[:ip], куда = ip:port или service[.ns]:port
  nodeplane load services <N> --selector app=web
                          довести число нагрузочных Service (load-1 … load-N) на эти Pod'ы до N —
                          в настоящем кластере это делают clusterloader2 или kube-burner
  clear                   очистить экран
  history                 список прошлых команд (стрелки вверх/вниз — повтор, Tab — дополнение)
  help                    этот список

Конвейеры: | grep [-i -v -c -n -o -w -x -E -F] [-A N -B N -C N] ШАБЛОН, | head [-n N],
       | tail [-n N], | wc [-l], | sort [-r -n -u -k N], | uniq [-c], | awk '{print $1}'
Корневые флаги kubectl можно ставить и перед командой: kubectl -n kube-system get ds
Ctrl-C останавливает наблюдение (kubectl get -w, logs -f, journalctl -f, rollout status).
kubectl auth can-i всегда отвечает yes: RBAC в Nodeplane не моделируется.
Справка самого kubectl — на английском, как в настоящем kubectl.

`
};

/** The console's `help`, in the learner's language; kubectl's own help follows, in English as kubectl prints it. */
export function consoleHelp(lang: Language = 'en'): string {
  return CONSOLE_TEXT[lang] + KUBECTL_HELP;
}

export class ConsoleSession {
  history: string[] = [];
  /**
   * The shells open on nodes, innermost last: `ssh worker-1` logs in (as root unless `user@`),
   * `sudo -i` opens a root shell on top, `exit` leaves the innermost.
   */
  shells: { node: string; user: string }[] = [];
  /** The watch the last command started, until stopped. */
  watch: WatchHandle | undefined;

  constructor(
    readonly cluster: Cluster,
    readonly options: ConsoleOptions = {}
  ) {}

  private get lang(): Language {
    return this.options.lang?.() ?? 'en';
  }

  /** The node a shell is open on, if any. */
  get node(): string | undefined {
    return this.shells[this.shells.length - 1]?.node;
  }

  /** The user of the innermost node shell. */
  get user(): string | undefined {
    return this.shells[this.shells.length - 1]?.user;
  }

  /** bash's default prompt: `user@host:~$ `, `#` for root; `$ ` on the workstation. */
  get prompt(): string {
    const sh = this.shells[this.shells.length - 1];
    if (!sh) return '$ ';
    return sh.user === 'root' ? `root@${sh.node}:~# ` : `${sh.user}@${sh.node}:~$ `;
  }

  exec(line: string): ConsoleResult {
    if (line.includes('\n')) return this.execLines(line.split(/\r?\n/));
    this.interrupt();
    if (line.trim()) this.history.push(line);
    let stages: string[][];
    try {
      stages = splitPipes(line).map(splitWords);
    } catch (e) {
      if (e instanceof ParseError) return { stdout: '', stderr: `bash: ${e.message}\n`, exitCode: 2 };
      throw e;
    }
    const [argv, ...filters] = stages;
    if (!argv?.length) return { stdout: '', stderr: '', exitCode: 0 };
    const refused = this.options.disabled?.(argv);
    if (refused)
      return { stdout: '', stderr: refused.endsWith('\n') ? refused : refused + '\n', exitCode: 1 };
    let result = this.node ? this.onNode(argv) : this.onWorkstation(argv);
    for (const f of filters) result = applyPipe(result, f);
    if (result.watch) {
      const inner = result.watch;
      const pipe = (s: string) =>
        filters.reduce((acc, f) => applyPipe({ stdout: acc, stderr: '', exitCode: 0 }, f).stdout, s);
      this.watch = filters.length ? { poll: () => pipe(inner.poll()), stop: () => inner.stop() } : inner;
      result.watch = this.watch;
    }
    return result;
  }

  /** Several lines pasted at once run one after another, as a terminal runs them. */
  private execLines(lines: string[]): ConsoleResult {
    const merged: ConsoleResult = { stdout: '', stderr: '', exitCode: 0 };
    for (const l of lines) {
      if (!l.trim()) continue;
      const r = this.exec(l);
      merged.stdout += r.stdout;
      merged.stderr += r.stderr;
      merged.exitCode = r.exitCode;
      merged.watch = r.watch;
      merged.action = r.action ?? merged.action;
      merged.trace = r.trace ?? merged.trace;
    }
    return merged;
  }

  /** Ctrl-C: stop the running watch. Returns true if one was running. */
  interrupt(): boolean {
    if (!this.watch) return false;
    this.watch.stop();
    this.watch = undefined;
    return true;
  }

  private onWorkstation(argv: string[]): ConsoleResult {
    const [cmd, ...args] = argv;
    switch (cmd) {
      case 'kubectl':
        return kubectl({ cluster: this.cluster, options: this.options }, args);
      case 'ssh':
        return this.ssh(args);
      case 'node-shell': {
        const target = args.filter((a) => !a.startsWith('-')).pop();
        if (!target) return { stdout: '', stderr: 'usage: node-shell <node>\n', exitCode: 1 };
        if (!knownHost(this.cluster, target)) {
          return {
            stdout: '',
            stderr: `Error from server (NotFound): nodes "${target}" not found\n`,
            exitCode: 1
          };
        }
        this.shells.push({ node: target, user: 'root' });
        return { stdout: '', stderr: '', exitCode: 0 };
      }
      case 'nodeplane':
        return this.nodeplane(args);
      case 'clear':
        return { stdout: '', stderr: '', exitCode: 0, action: { type: 'clear' } };
      case 'help':
        return { stdout: consoleHelp(this.lang), stderr: '', exitCode: 0 };
      case 'history':
        return { stdout: this.historyText(), stderr: '', exitCode: 0 };
      case 'exit':
      case 'logout':
        return { stdout: '', stderr: '', exitCode: 0 };
      default:
        return { stdout: '', stderr: `bash: ${cmd}: command not found\n`, exitCode: 127 };
    }
  }

  private traces = 0;

  /** `nodeplane trace <from> <to>`: the packet's path, rule by rule (network/trace.ts). */
  private nodeplane(args: string[]): ConsoleResult {
    if (args[0] === 'load') return loadServices(this.cluster, args.slice(1));
    const usage =
      'usage: nodeplane trace <from> <to>   e.g. nodeplane trace default/client web:80\n' +
      '       nodeplane load services <count> --selector <key>=<value> [--port <port>] [-n <namespace>]\n';
    if (args[0] !== 'trace' || args.length !== 3) return { stdout: '', stderr: usage, exitCode: 1 };
    try {
      // Each trace draws from its own seed so looking never changes the cluster's random sequence.
      const r = trace(this.cluster, args[1], args[2], { seed: this.cluster.config.seed + ++this.traces });
      return { stdout: renderTrace(r), stderr: '', exitCode: 0, trace: r };
    } catch (e) {
      return { stdout: '', stderr: `error: ${(e as Error).message}\n`, exitCode: 1 };
    }
  }

  private onNode(argv: string[]): ConsoleResult {
    const [cmd] = argv;
    const sh = this.shells[this.shells.length - 1];
    if (cmd === 'exit' || cmd === 'logout') {
      this.shells.pop();
      const outer = this.shells[this.shells.length - 1];
      // Leaving `sudo -i` returns to the login shell; leaving the login shell closes the connection.
      const closed = !outer || outer.node !== sh.node;
      return {
        stdout: closed ? `logout\nConnection to ${sh.node} closed.\n` : 'logout\n',
        stderr: '',
        exitCode: 0
      };
    }
    if (cmd === 'clear') return { stdout: '', stderr: '', exitCode: 0, action: { type: 'clear' } };
    if (cmd === 'history') return { stdout: this.historyText(), stderr: '', exitCode: 0 };
    const login = rootShell(argv);
    if (login) {
      if (sh.user !== 'root' && cmd === 'su')
        return { stdout: '', stderr: 'Password: \nsu: Authentication failure\n', exitCode: 1 };
      this.shells.push({ node: sh.node, user: 'root' });
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    return runOnNode(this.cluster, sh.node, argv, sh.user, this.lang);
  }

  /**
   * `ssh [options] [user@]host [command …]`: with a command, run it on the node and return (its
   * output and exit code, as OpenSSH gives them); without one, open a login shell there.
   */
  private ssh(args: string[]): ConsoleResult {
    const parsed = parseSsh(args);
    if (!parsed.ok) return { stdout: '', stderr: parsed.stderr, exitCode: 255 };
    const { host, command, tty } = parsed.cmd;
    const user = parsed.cmd.user ?? 'root';
    if (!knownHost(this.cluster, host)) {
      const managed = this.cluster.config.managed;
      return {
        stdout: '',
        stderr:
          `ssh: Could not resolve hostname ${host}: Name or service not known\n` +
          (managed && isControlPlaneHostName(host) ? managedHostNote(managed) : ''),
        exitCode: 255
      };
    }
    if (command === undefined) {
      this.shells.push({ node: host, user });
      return { stdout: '', stderr: '', exitCode: 0 };
    }
    const r = this.remote(host, user, command);
    return tty ? { ...r, stderr: r.stderr + `Connection to ${host} closed.\n` } : r;
  }

  /** A command line the remote shell runs (`ssh host cmd`): its own quoting and pipes. */
  private remote(node: string, user: string, line: string): ConsoleResult {
    let stages: string[][];
    try {
      stages = splitPipes(line).map(splitWords);
    } catch (e) {
      if (e instanceof ParseError)
        return { stdout: '', stderr: `bash: -c: line 1: ${e.message}\n`, exitCode: 2 };
      throw e;
    }
    const [argv, ...filters] = stages;
    if (!argv?.length) return { stdout: '', stderr: '', exitCode: 0 };
    if (rootShell(argv) || argv[0] === 'exit' || argv[0] === 'logout')
      return { stdout: '', stderr: '', exitCode: 0 };
    let result = runOnNode(this.cluster, node, argv, user, this.lang);
    for (const f of filters) result = applyPipe(result, f);
    // A one-shot command gets no terminal: a follow (journalctl -f) prints what is there and returns.
    if (result.watch) {
      result.watch.stop();
      delete result.watch;
    }
    return result;
  }

  /** bash `history`: `%5d  %s`. */
  private historyText(): string {
    return this.history.map((h, i) => `${String(i + 1).padStart(5)}  ${h}\n`).join('');
  }

  /**
   * Completions for the last word of `line`: each candidate is the whole word that would replace
   * it (verbs, resource types, object names, node names, node-shell tools and units).
   */
  complete(line: string): string[] {
    const words = line.split(/\s+/);
    const cur = words.pop() ?? '';
    const prev = words.filter(Boolean);
    const match = (xs: string[]) => [...new Set(xs)].filter((x) => x.startsWith(cur)).sort();
    if (this.node) {
      if (prev[0] === 'sudo') prev.shift();
      if (!prev.length) return match(NODE_COMMANDS);
      if (['ls', 'cat', 'less', 'head', 'tail'].includes(prev[0]) && cur.startsWith('/')) {
        // Paths: the entries of the directory typed so far, directories with a trailing slash.
        const files = nodeFiles(this.cluster, shellHost(this.cluster, this.node));
        const dir = cur.slice(0, cur.lastIndexOf('/') + 1);
        const names = listDir(files, dir === '/' ? '/' : dir.slice(0, -1)) ?? [];
        return match(names.map((n) => dir + n + (isDir(files, dir + n) ? '/' : '')));
      }
      if (prev[0] === 'systemctl') {
        return prev.length === 1
          ? match(['status', 'stop', 'start', 'restart', 'is-active'])
          : match(['kubelet', 'containerd', 'crio']);
      }
      if (prev[0] === 'journalctl') return match(['-u', 'kubelet', 'containerd', 'crio', '-f', '--since']);
      if (prev[0] === 'crictl') return match(['ps', 'pods', 'images', 'inspect', 'logs']);
      if (prev[0] === 'ip') return match(['addr', 'route']);
      return [];
    }
    if (!prev.length) return match(TOP_COMMANDS);
    if (prev[0] === 'ssh' || prev[0] === 'node-shell') return match(this.names('Node'));
    if (prev[0] !== 'kubectl') return [];
    const args = prev
      .slice(1)
      .filter(
        (a, i, all) =>
          !a.startsWith('-') && !['-n', '--namespace', '-o', '-l', '-c'].includes(all[i - 1] ?? '')
      );
    const nsIdx = prev.findIndex((w) => w === '-n' || w === '--namespace');
    const ns = nsIdx >= 0 ? prev[nsIdx + 1] : 'default';
    if (prev[prev.length - 1] === '-n' || prev[prev.length - 1] === '--namespace')
      return match(this.names('Namespace'));
    if (prev[prev.length - 1] === '-o')
      return match(['wide', 'yaml', 'json', 'name', 'jsonpath=', 'custom-columns=']);
    if (!args.length) return match(Object.keys(VERBS));
    const verb = args[0];
    if (['cordon', 'uncordon', 'drain'].includes(verb)) return match(this.names('Node'));
    if (verb === 'logs') return match(this.names('Pod', ns));
    if (verb === 'top') return args.length === 1 ? match(['nodes', 'pods']) : [];
    if (verb === 'rollout') {
      if (args.length === 1) return match(['status', 'restart', 'undo']);
      if (args.length === 2) return match(['deployment', 'daemonset']);
    }
    if (verb === 'auth') return match(['can-i']);
    const typeIdx = verb === 'rollout' ? 2 : 1;
    if (args.length === typeIdx) {
      if (cur.includes('/')) {
        const [t, n] = cur.split('/');
        const r = lookupResource(t);
        return r
          ? this.names(r.kind, ns)
              .filter((x) => x.startsWith(n))
              .map((x) => `${t}/${x}`)
          : [];
      }
      return match(RESOURCES.flatMap((r) => [r.plural, r.singular, ...r.shortNames]));
    }
    if (args.length > typeIdx) {
      const r = lookupResource(args[typeIdx].split(',')[0]);
      if (r) return match(this.names(r.kind, ns));
    }
    return [];
  }

  /** Completion lists objects like kubectl's `__complete` does: one counted list request. */
  private names(kind: string, namespace?: string): string[] {
    const r = RESOURCES.find((x) => x.kind === kind);
    this.cluster.api.countRead('list', kind, { component: 'kubectl' });
    return this.cluster.api
      .list(kind, { namespace: r?.namespaced ? namespace : undefined })
      .map((o) => o.metadata.name);
  }
}
