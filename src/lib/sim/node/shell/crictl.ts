/** crictl against the node's runtime (cri-tools: minwidth-20 tables, C1–C2). */
import type { Cluster } from '../../cluster';
import type { CriContainer } from '../cri';
import { CRICTL, tabbed } from '../../kubectl/tabwriter';
import { humanSize, unitsAgo } from '../../kubectl/timefmt';
import type { ShellHost } from './host';
import type { ShellResult } from './shell';

const short = (id: string) => id.replace(/^sha256:/, '').slice(0, 13);
const STATE: Record<CriContainer['state'], string> = {
  CONTAINER_CREATED: 'Created',
  CONTAINER_RUNNING: 'Running',
  CONTAINER_EXITED: 'Exited',
  CONTAINER_UNKNOWN: 'Unknown'
};

function socket(host: ShellHost): string {
  return host.view.runtimeName === 'cri-o' ? '/var/run/crio/crio.sock' : '/run/containerd/containerd.sock';
}

function fatal(msg: string): ShellResult {
  return { stdout: '', stderr: `FATA[0000] ${msg}\n`, exitCode: 1 };
}

function rfc3339Nano(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

function findContainer(host: ShellHost, id: string): CriContainer | undefined {
  return host.view.containers().find((c) => c.id.startsWith(id));
}

export function crictl(cluster: Cluster, host: ShellHost, argv: string[]): ShellResult {
  const [sub, ...rest] = argv;
  const flags = new Set(rest.filter((a) => a.startsWith('-')));
  const args: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--tail') i++;
    else if (!rest[i].startsWith('-')) args.push(rest[i]);
  }
  if (!sub || sub === 'help' || sub === '--help') {
    return {
      stdout:
        'NAME:\n   crictl - client for CRI\n\nCOMMANDS:\n   images     List images\n   inspect    Display the status of one or more containers\n   logs       Fetch the logs of a container\n   pods       List pods\n   ps         List containers\n',
      stderr: '',
      exitCode: 0
    };
  }
  if (!host.view.runtimeRunning) {
    const sock = socket(host);
    return fatal(
      `validate service connection: validate CRI v1 runtime API for endpoint "unix://${sock}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${sock}: connect: no such file or directory"`
    );
  }
  const now = cluster.engine.now;
  const epoch = cluster.api.epochMs;
  switch (sub) {
    case 'ps': {
      const all = flags.has('-a') || flags.has('--all');
      const sandboxes = host.view.sandboxes();
      const rows = host.view
        .containers()
        .filter((c) => all || c.state === 'CONTAINER_RUNNING')
        .sort((a, b) => b.createdAt - a.createdAt);
      if (flags.has('-q') || flags.has('--quiet')) return ok(rows.map((c) => c.id + '\n').join(''));
      let t = 'CONTAINER\tIMAGE\tCREATED\tSTATE\tNAME\tATTEMPT\tPOD ID\tPOD\tNAMESPACE\n';
      for (const c of rows) {
        const sb = sandboxes.find((s) => s.id === c.sandboxId);
        const image = /^(sha256:)?[0-9a-f]{13,}$/.test(c.imageId) ? short(c.imageId) : c.image;
        t += `${short(c.id)}\t${image}\t${unitsAgo(now - c.createdAt)}\t${STATE[c.state]}\t${c.name}\t${c.attempt}\t${short(
          c.sandboxId
        )}\t${sb?.podName ?? c.podName}\t${sb?.podNamespace ?? c.podNamespace}\n`;
      }
      return ok(tabbed(t, CRICTL));
    }
    case 'pods': {
      const rows = host.view.sandboxes().sort((a, b) => b.createdAt - a.createdAt);
      if (flags.has('-q') || flags.has('--quiet')) return ok(rows.map((s) => s.id + '\n').join(''));
      let t = 'POD ID\tCREATED\tSTATE\tNAME\tNAMESPACE\tATTEMPT\tRUNTIME\n';
      for (const s of rows) {
        t += `${short(s.id)}\t${unitsAgo(now - s.createdAt)}\t${s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady'}\t${
          s.podName
        }\t${s.podNamespace}\t${s.attempt}\t(default)\n`;
      }
      return ok(tabbed(t, CRICTL));
    }
    case 'images':
    case 'img': {
      const rows = host.view
        .images()
        .sort((a, b) => (`${a.repository}:${a.tag}` < `${b.repository}:${b.tag}` ? -1 : 1));
      if (flags.has('-q') || flags.has('--quiet')) return ok(rows.map((i) => `sha256:${i.id}\n`).join(''));
      let t = 'IMAGE\tTAG\tIMAGE ID\tSIZE\n';
      for (const i of rows) t += `${i.repository}\t${i.tag}\t${short(i.id)}\t${humanSize(i.sizeBytes)}\n`;
      return ok(tabbed(t, CRICTL));
    }
    case 'inspect': {
      if (!args.length) return fatal('ID cannot be empty');
      const c = findContainer(host, args[0]);
      if (!c) {
        return fatal(
          `getting the status of the container "${args[0]}": rpc error: code = NotFound desc = an error occurred when try to find container "${args[0]}": not found`
        );
      }
      const sb = host.view.sandboxes().find((s) => s.id === c.sandboxId);
      const status = {
        status: {
          id: c.id,
          metadata: { attempt: c.attempt, name: c.name },
          state: c.state,
          createdAt: rfc3339Nano(epoch + c.createdAt),
          startedAt: c.startedAt !== undefined ? rfc3339Nano(epoch + c.startedAt) : '1970-01-01T00:00:00Z',
          finishedAt: c.finishedAt !== undefined ? rfc3339Nano(epoch + c.finishedAt) : '1970-01-01T00:00:00Z',
          exitCode: c.exitCode ?? 0,
          image: { image: c.image },
          imageRef: c.imageId.startsWith('sha256:') ? c.imageId : `sha256:${c.imageId}`,
          reason: c.reason ?? '',
          message: '',
          labels: {
            'io.kubernetes.container.name': c.name,
            'io.kubernetes.pod.name': c.podName,
            'io.kubernetes.pod.namespace': c.podNamespace,
            ...(sb ? { 'io.kubernetes.pod.uid': sb.podUid } : {})
          },
          logPath: `/var/log/pods/${c.podNamespace}_${c.podName}_${sb?.podUid ?? ''}/${c.name}/${c.attempt}.log`
        },
        info: { sandboxID: c.sandboxId, runtimeType: 'io.containerd.runc.v2' }
      };
      return ok(JSON.stringify(status, null, 2) + '\n');
    }
    case 'logs': {
      if (!args.length) return fatal('ID cannot be empty');
      const c = findContainer(host, args[0]);
      if (!c) {
        return fatal(
          `rpc error: code = NotFound desc = an error occurred when try to find container "${args[0]}": not found`
        );
      }
      let lines = c.logs;
      const ti = rest.indexOf('--tail');
      if (ti >= 0) lines = lines.slice(Math.max(0, lines.length - parseInt(rest[ti + 1] ?? '0', 10)));
      return ok(lines.map(([, l]) => l + '\n').join(''));
    }
    default:
      return {
        stdout: '',
        stderr: `No help topic for '${sub}'\n`,
        exitCode: 3
      };
  }
}

function ok(stdout: string): ShellResult {
  return { stdout, stderr: '', exitCode: 0 };
}
