/** `iptables -t <table> -L [chain] -n`: the listing view of the same rules iptables-save prints. */
import type { Table } from './iptables';

function tokens(spec: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(spec))) out.push(m[1] !== undefined ? `"${m[1]}"` : m[2]);
  return out;
}

interface Row {
  target: string;
  prot: string;
  source: string;
  destination: string;
  extra: string[];
}

function parse(spec: string): Row {
  const t = tokens(spec);
  const row: Row = { target: '', prot: 'all', source: '0.0.0.0/0', destination: '0.0.0.0/0', extra: [] };
  let neg = false;
  let proto = '';
  for (let i = 0; i < t.length; i++) {
    const a = t[i];
    const next = () => t[++i];
    if (a === '!') {
      neg = true;
      continue;
    }
    const n = neg ? '!' : '';
    neg = false;
    if (a === '-s') row.source = n + next().replace(/\/32$/, '');
    else if (a === '-d') row.destination = n + next().replace(/\/32$/, '');
    else if (a === '-p') row.prot = proto = next();
    else if (a === '-j') row.target = next();
    else if (a === '--comment') row.extra.push(`/* ${next().slice(1, -1)} */`);
    else if (a === '--dport') row.extra.push(`${proto} dpt:${next()}`);
    else if (a === '--probability') row.extra.push(`statistic mode random probability ${next()}`);
    else if (a === '--to-destination') row.extra.push(`${proto} to:${next()}`);
    else if (a === '--dst-type') row.extra.push(`ADDRTYPE match dst-type ${next()}`);
    else if (a === '--src-type') row.extra.push(`ADDRTYPE match src-type ${next()}`);
    else if (a === '--ctstate') row.extra.push(`ctstate ${n}${next()}`);
    else if (a === '--mark') row.extra.push(`mark match ${n}${next()}`);
    else if (a === '--set-xmark')
      row.extra.push(`MARK ${next() === '0x4000/0x4000' ? 'or 0x4000' : 'xor 0x4000'}`);
    else if (a === '--random-fully') row.extra.push('random-fully');
    else if (a === '--reject-with') row.extra.push(`reject-with ${next()}`);
    else if (a === '--match-set') row.extra.push(`match-set ${next()} ${next()}`);
    else if (a === '--rcheck') row.extra.push('recent: CHECK');
    else if (a === '--set' && t[i - 1] === 'recent') row.extra.push('recent: SET');
    else if (a === '--seconds') row.extra.push(`seconds: ${next()}`);
    else if (a === '--reap') row.extra.push('reap');
    else if (a === '--name') row.extra.push(`name: ${next()}`);
    else if (a === '--mask') row.extra.push(`side: source mask: ${next()}`);
  }
  return row;
}

/** Per chain: the rules that jump to it (each rule once) and its own rules, in one pass over the table. */
function index(t: Table): { refs: Map<string, number>; byChain: Map<string, Table['rules']> } {
  const refs = new Map<string, number>();
  const byChain = new Map<string, Table['rules']>();
  for (const r of t.rules) {
    const own = byChain.get(r.chain);
    if (own) own.push(r);
    else byChain.set(r.chain, [r]);
    // Every "-j <name>" the rule holds, the name ending at a space or the end of the rule.
    const targets = new Set<string>();
    for (let i = r.spec.indexOf('-j '); i >= 0; i = r.spec.indexOf('-j ', i + 1)) {
      const end = r.spec.indexOf(' ', i + 3);
      const name = r.spec.slice(i + 3, end < 0 ? undefined : end);
      if (name) targets.add(name);
    }
    for (const name of targets) refs.set(name, (refs.get(name) ?? 0) + 1);
  }
  return { refs, byChain };
}

export function renderIptablesList(t: Table, chain?: string): string {
  const chains = chain ? [chain] : [...t.builtins, ...[...t.chains].sort()];
  const { refs, byChain } = index(t);
  const blocks: string[] = [];
  for (const c of chains) {
    const head = t.builtins.includes(c)
      ? `Chain ${c} (policy ACCEPT)`
      : `Chain ${c} (${refs.get(c) ?? 0} references)`;
    const lines = [head, 'target     prot opt source               destination         '];
    for (const r of byChain.get(c) ?? []) {
      const row = parse(r.spec);
      lines.push(
        `${row.target.padEnd(9)}  ${row.prot.padEnd(4)} --  ${row.source.padEnd(20)} ${row.destination.padEnd(20)} ${row.extra.join(' ')}`.trimEnd()
      );
    }
    blocks.push(lines.join('\n') + '\n');
  }
  return blocks.join('\n');
}
