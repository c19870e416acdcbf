/**
 * The OpenSSH client's command line (`ssh [options] [user@]host [command [argument ...]]`), as
 * ssh.c parses it: options before the destination, options again after it until the first word
 * that is not an option (or `--`), and the rest is the remote command, its words joined with
 * spaces for the remote shell. Only the login name and the command matter to the lab; the other
 * options are accepted and have no effect.
 */

/** ssh.c's getopt string: letters followed by ':' take an argument. */
const OPTSTRING = '1246ab:c:e:fgi:kl:m:no:p:qstvxAB:CD:E:F:GI:J:KL:MNO:P:Q:R:S:TVw:W:XYy';

export const SSH_USAGE = `usage: ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B bind_interface] [-b bind_address]
           [-c cipher_spec] [-D [bind_address:]port] [-E log_file]
           [-e escape_char] [-F configfile] [-I pkcs11] [-i identity_file]
           [-J destination] [-L address] [-l login_name] [-m mac_spec]
           [-O ctl_cmd] [-o option] [-P tag] [-p port] [-R address]
           [-S ctl_path] [-W host:port] [-w local_tun[:remote_tun]]
           destination [command [argument ...]]
       ssh [-Q query_option]
`;

export interface SshCommand {
  host: string;
  /** The login name (`user@host` or `-l user`), if given. */
  user?: string;
  /** The remote command line, or undefined for a login shell. */
  command?: string;
  /** `-t`: a terminal was asked for (OpenSSH then says "Connection to host closed."). */
  tty: boolean;
}

export type SshParse = { ok: true; cmd: SshCommand } | { ok: false; stderr: string };

function takesArg(ch: string): boolean | undefined {
  const i = OPTSTRING.indexOf(ch);
  if (i < 0 || ch === ':') return undefined;
  return OPTSTRING[i + 1] === ':';
}

/** Parse ssh's arguments (without the `ssh` word). */
export function parseSsh(args: string[]): SshParse {
  let user: string | undefined;
  let tty = false;
  let i = 0;
  let terminated = false;
  const fail = (msg: string): SshParse => ({ ok: false, stderr: msg + SSH_USAGE });
  // getopt over args[i..] until a non-option; returns an error message or undefined.
  const options = (): SshParse | undefined => {
    while (i < args.length) {
      const a = args[i];
      if (a === '--') {
        i++;
        terminated = true;
        return;
      }
      if (!a.startsWith('-') || a === '-') return;
      i++;
      for (let j = 1; j < a.length; j++) {
        const ch = a[j];
        const arg = takesArg(ch);
        if (arg === undefined) return fail(`unknown option -- ${ch}\n`);
        if (!arg) {
          if (ch === 't') tty = true;
          continue;
        }
        let value = a.slice(j + 1);
        if (!value) {
          if (i >= args.length) return fail(`option requires an argument -- ${ch}\n`);
          value = args[i++];
        }
        if (ch === 'l') user = value;
        break;
      }
    }
  };
  const first = options();
  if (first) return first;
  if (i >= args.length) return fail('');
  let dest = args[i++];
  const m = /^ssh:\/\/(.+)$/.exec(dest);
  if (m) dest = m[1].replace(/:\d+$/, '').replace(/\/$/, '');
  const at = dest.lastIndexOf('@');
  if (at >= 0) {
    user ??= dest.slice(0, at);
    dest = dest.slice(at + 1);
  }
  const host = dest;
  if (!terminated) {
    const again = options();
    if (again) return again;
  }
  const rest = args.slice(i);
  return { ok: true, cmd: { host, user, tty, command: rest.length ? rest.join(' ') : undefined } };
}
