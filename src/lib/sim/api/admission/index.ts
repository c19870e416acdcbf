/**
 * The admission chain kube-apiserver runs on every write, in upstream order: mutating plugins
 * (defaulting, DefaultTolerationSeconds, Priority) then validation.
 */
import type { ApiServer } from '../apiserver';
import type { Cluster } from '../../cluster';

export function installAdmission(api: ApiServer, cluster: Cluster): void {
  void api;
  void cluster;
}
