/**
 * `help` on a node: the tools this node shell has, in the learner's language. The commands are
 * the real tools' own words and stay as they are; only the descriptions are translated.
 */
import type { Language } from '../../../lessons/format';

const NODE: Record<Language, string> = {
  en: `Commands on the node:
  systemctl status|stop|start|restart kubelet|containerd|crio
  journalctl -u kubelet [-f] [--since "5 min ago"] [-n N]
  crictl ps [-a] | pods | images | inspect ID | logs ID
  ip addr | ip route | ip link set eth0 down|up
  iptables-save [-t nat] | iptables -t nat -L -n | ipvsadm -Ln | nft list ruleset
  ls, cat, less, head, tail, grep: /var/lib/kubelet/config.yaml, /etc/kubernetes/kubelet.conf,
    /etc/cni/net.d/*, /etc/containerd/config.toml (or /etc/crio/crio.conf),
    /var/lib/kube-proxy/config.conf
  sed 's/old/new/' FILE (prints the edit; kube-proxy's mode is set in its ConfigMap:
    kubectl -n kube-system edit configmap kube-proxy, then a rollout restart of its DaemonSet)
  mv /etc/cni/net.d/<file> /root/ (and back) | fallocate -l 100G /var/lib/fill.img | rm /var/lib/fill.img
  stress-ng --vm 1 --vm-bytes 95% --vm-keep
  sudo <command> | sudo -i | free -m | df -h | hostname | whoami
  clear | history | exit
`,
  ru: `Команды на узле:
  systemctl status|stop|start|restart kubelet|containerd|crio
  journalctl -u kubelet [-f] [--since "5 min ago"] [-n N]
  crictl ps [-a] | pods | images | inspect ID | logs ID
  ip addr | ip route | ip link set eth0 down|up
  iptables-save [-t nat] | iptables -t nat -L -n | ipvsadm -Ln | nft list ruleset
  ls, cat, less, head, tail, grep — файлы: /var/lib/kubelet/config.yaml, /etc/kubernetes/kubelet.conf,
    /etc/cni/net.d/*, /etc/containerd/config.toml (или /etc/crio/crio.conf),
    /var/lib/kube-proxy/config.conf
  sed 's/old/new/' ФАЙЛ (печатает правку; режим kube-proxy задаётся в его ConfigMap:
    kubectl -n kube-system edit configmap kube-proxy, затем rollout restart его DaemonSet)
  mv /etc/cni/net.d/<файл> /root/ (и обратно) | fallocate -l 100G /var/lib/fill.img | rm /var/lib/fill.img
  stress-ng --vm 1 --vm-bytes 95% --vm-keep
  sudo <команда> | sudo -i | free -m | df -h | hostname | whoami
  clear | history | exit (выйти с узла)
`
};

const CONTROL_PLANE: Record<Language, string> = {
  en: `On a control-plane host:
  ls -l /etc/kubernetes/manifests | cat | grep | mv | cp | mkdir -p | rm -r | scp FILE HOST:PATH
  sed -i 's|old|new|' FILE
  etcdctl member list | endpoint status | endpoint health [--cluster] [-w table]
  etcdctl get /registry/... --prefix --keys-only | snapshot save FILE
  etcdutl snapshot status FILE [-w table] | snapshot restore FILE --data-dir DIR
  etcdctl member add NAME --peer-urls=URL [--learner] | member promote ID | member remove ID
  curl -s http://127.0.0.1:2381/metrics
  curl -sk --cert /etc/kubernetes/pki/apiserver-kubelet-client.crt \\
    --key /etc/kubernetes/pki/apiserver-kubelet-client.key https://<node-ip>:10250/metrics
    (that certificate reads kubelets only; from the workstation: kubectl get --raw /metrics)
`,
  ru: `На хосте control plane:
  ls -l /etc/kubernetes/manifests | cat | grep | mv | cp | mkdir -p | rm -r | scp ФАЙЛ ХОСТ:ПУТЬ
  sed -i 's|old|new|' ФАЙЛ
  etcdctl member list | endpoint status | endpoint health [--cluster] [-w table]
  etcdctl get /registry/... --prefix --keys-only | snapshot save ФАЙЛ
  etcdutl snapshot status ФАЙЛ [-w table] | snapshot restore ФАЙЛ --data-dir КАТАЛОГ
  etcdctl member add ИМЯ --peer-urls=URL [--learner] | member promote ID | member remove ID
  curl -s http://127.0.0.1:2381/metrics
  curl -sk --cert /etc/kubernetes/pki/apiserver-kubelet-client.crt \\
    --key /etc/kubernetes/pki/apiserver-kubelet-client.key https://<ip-узла>:10250/metrics
    (этот сертификат читает только kubelet'ы; с рабочей станции: kubectl get --raw /metrics)
`
};

/** Where kube-proxy is a systemd unit on the node, its lines replace the ConfigMap's. */
const KUBE_PROXY_UNIT: Record<Language, [string, string][]> = {
  en: [
    [
      'systemctl status|stop|start|restart kubelet|containerd|crio',
      'systemctl status|stop|start|restart kubelet|containerd|crio|kube-proxy'
    ],
    ['journalctl -u kubelet [-f]', 'journalctl -u kubelet|kube-proxy [-f]'],
    [
      `sed 's/old/new/' FILE (prints the edit; kube-proxy's mode is set in its ConfigMap:
    kubectl -n kube-system edit configmap kube-proxy, then a rollout restart of its DaemonSet)`,
      `sed 's/old/new/' FILE (prints the edit); kube-proxy runs as a systemd unit on this node:
    sudo sed -i 's/mode: .*/mode: "ipvs"/' /var/lib/kube-proxy/config.conf, then
    sudo systemctl restart kube-proxy`
    ]
  ],
  ru: [
    [
      'systemctl status|stop|start|restart kubelet|containerd|crio',
      'systemctl status|stop|start|restart kubelet|containerd|crio|kube-proxy'
    ],
    ['journalctl -u kubelet [-f]', 'journalctl -u kubelet|kube-proxy [-f]'],
    [
      `sed 's/old/new/' ФАЙЛ (печатает правку; режим kube-proxy задаётся в его ConfigMap:
    kubectl -n kube-system edit configmap kube-proxy, затем rollout restart его DaemonSet)`,
      `sed 's/old/new/' ФАЙЛ (печатает правку); kube-proxy работает на этом узле как unit systemd:
    sudo sed -i 's/mode: .*/mode: "ipvs"/' /var/lib/kube-proxy/config.conf, затем
    sudo systemctl restart kube-proxy`
    ]
  ]
};

/**
 * The node shell's `help`; a control-plane host adds its etcd and static-pod tools, and a node
 * where kube-proxy is a systemd unit names the unit and its file instead of the ConfigMap.
 */
export function nodeShellHelp(lang: Language = 'en', controlPlane = false, kubeProxyUnit = false): string {
  let text = NODE[lang];
  if (kubeProxyUnit) for (const [from, to] of KUBE_PROXY_UNIT[lang]) text = text.replace(from, to);
  return text + (controlPlane ? CONTROL_PLANE[lang] : '');
}
