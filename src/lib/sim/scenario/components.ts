/**
 * Importing this module registers every component kind, fault and admission plugin a scenario
 * uses: the node plane (kubelet, node faults), kube-controller-manager, kube-scheduler, the etcd
 * member faults and networking (kube-proxy, EndpointSlice controller, Service IP allocation).
 */
import '../node';
import '../controllers';
import '../scheduler/component';
import '../etcd/faults';
import '../network';
import '../controllers/cluster-autoscaler';
import '../controlplane';
