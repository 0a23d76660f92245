# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_karmadactl_global_optspecs
    string join \n v/v= add-dir-header= alsologtostderr= alsologtostderrthreshold= legacy-stderr-threshold-behavior= log-backtrace-at= log-dir= log-file= log-file-max-size= logtostderr= one-output= skip-headers= skip-log-headers= stderrthreshold= vmodule= h/help
end

function __fish_karmadactl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_karmadactl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_karmadactl_using_subcommand
    set -l cmd (__fish_karmadactl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c karmadactl -n "__fish_karmadactl_needs_command" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "init" -d 'Install the Karmada control plane in a Kubernetes cluster'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "deinit" -d 'Remove the Karmada control plane from the Kubernetes cluster'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "join" -d 'Register a cluster to Karmada control plane with Push mode'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "unjoin" -d 'Remove a cluster from Karmada control plane'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "token" -d 'Manage bootstrap tokens used by `register` to join a cluster in Pull mode'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "register" -d 'Register a cluster to Karmada control plane with Pull mode'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "unregister" -d 'Remove a cluster registered in Pull mode from Karmada control plane'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "cordon" -d 'Mark cluster as unschedulable'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "uncordon" -d 'Mark cluster as schedulable'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "taint" -d 'Update the taints on one or more clusters'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "get" -d 'Display one or many resources in the Karmada control plane and member clusters'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "promote" -d 'Promote resources from legacy clusters to Karmada control plane'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "completion" -d 'Output shell completion code for the specified shell (bash, zsh, fish, or powershell)'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "version" -d 'Print the version information'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "options" -d 'Print the list of flags inherited by all commands'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "controlplane" -d 'Run the embedded Karmada control plane (an HTTPS Kubernetes-compatible API server on a durable store)'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "local" -d 'Run Karmada on this machine: a playground of a control plane and SIMULATED member clusters (simulations, not real clusters)'
complete -c karmadactl -n "__fish_karmadactl_needs_command" -f -a "agent" -d 'Run the Pull-mode agent for one member cluster in the foreground (what \'register --agent-mode=local\' starts in the background)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l private-image-registry -d 'Private image registry to pull images from; when set, all images come from it' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l image-pull-policy -d 'Image pull policy of karmada components: Always, Never or IfNotPresent' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l image-pull-secrets -d 'Image pull secrets used by every pod, comma-separated' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l kube-image-mirror-country -d 'Country code of the Kubernetes image mirror: cn (registry.cn-hangzhou.aliyuncs.com/google_containers) or global' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l kube-image-registry -d 'Registry for the Kubernetes images (kube-apiserver, kube-controller-manager, etcd)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l kube-image-tag -d 'Tag of kube-apiserver and kube-controller-manager images' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l cert-external-ip -d 'Extra IP addresses for the API server certificate, comma-separated' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l cert-external-dns -d 'Extra DNS names for the API server certificate, comma-separated' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l cert-validity-period -d 'Validity of the leaf certificates, e.g. 8760h0m0s' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l ca-cert-file -d 'Root CA certificate file to use instead of generating one (with --ca-key-file)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l ca-key-file -d 'Root CA private key file to use instead of generating one (with --ca-cert-file)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -s n -l namespace -d 'Namespace of the Karmada control plane components in the host cluster' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l storage-classes-name -d 'Storage class for etcd data when --etcd-storage-mode is PVC' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l kubeconfig -d 'Path to the kubeconfig file of the cluster (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l context -d 'The name of the kubeconfig context to use (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l host-cluster-domain -d 'The cluster domain of the host cluster, used in certificate names and service URLs' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-storage-mode -d 'etcd data storage mode: emptyDir, hostPath or PVC' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-data -d 'etcd data path on the host, with --etcd-storage-mode hostPath' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-node-selector-labels -d 'Labels selecting the node etcd runs on (hostPath only), e.g. karmada.io/etcd=true,kubernetes.io/os=linux' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-pvc-size -d 'Size of the etcd PVC, with --etcd-storage-mode PVC' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l external-etcd-ca-cert-path -d 'CA certificate of an external etcd' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l external-etcd-client-cert-path -d 'Client certificate for an external etcd' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l external-etcd-client-key-path -d 'Client key for an external etcd' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l external-etcd-servers -d 'Comma-separated URLs of an external etcd; when set, no etcd is deployed' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l external-etcd-key-prefix -d 'Key prefix in the external etcd' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l crds -d 'The Karmada CRDs: a URL (http…) or a local tarball path' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l config -d 'A KarmadaInitConfig file; flags given on the command line win over it' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-apiserver-advertise-address -d 'The IP address the API server advertises to members' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -s p -l port -d 'NodePort of the karmada-apiserver Service' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -s d -l karmada-data -d 'Directory for Karmada\'s data: the admin kubeconfig and CRDs; with --embedded also the store, pid and log files [default: /etc/karmada; with --embedded as a non-root user: $XDG_DATA_HOME/karmadactl/karmada, i.e. ~/.local/share/karmadactl/karmada]' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-pki -d 'Directory for Karmada\'s certificates and keys [default: /etc/karmada/pki; with --embedded: <karmada-data>/pki]' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l datastore -d 'With --embedded: where the control plane stores objects, `sqlite` (in the data directory) or `etcd://HOST:PORT[,HOST:PORT...]`; the --external-etcd-* certificate flags and --external-etcd-key-prefix apply to it. Kept for later runs on the same data' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -s o -l output -d 'Output format for the result: json or yaml (the banner otherwise)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l wait-component-ready-timeout -d 'Seconds to wait for each component to become ready; 0 waits forever' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-image -d 'etcd image (default: derived from the Kubernetes image registry and tag).' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-replicas -d 'etcd replica set.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-priority-class -d 'The priority class name for the component etcd.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l etcd-extra-args -d 'Additional command line arguments for etcd, e.g. --etcd-extra-args=--v=4.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-apiserver-image -d 'karmada-apiserver image (default: derived from the Kubernetes image registry and tag).' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-apiserver-replicas -d 'karmada-apiserver replica set.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-apiserver-priority-class -d 'The priority class name for the component karmada-apiserver.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-apiserver-extra-args -d 'Additional command line arguments for karmada-apiserver, e.g. --karmada-apiserver-extra-args=--v=4.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-scheduler-image -d 'karmada-scheduler image.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-scheduler-replicas -d 'karmada-scheduler replica set.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-scheduler-priority-class -d 'The priority class name for the component karmada-scheduler.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-scheduler-extra-args -d 'Additional command line arguments for karmada-scheduler, e.g. --karmada-scheduler-extra-args=--v=4.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-kube-controller-manager-image -d 'kube-controller-manager image (default: derived from the Kubernetes image registry and tag).' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-kube-controller-manager-replicas -d 'kube-controller-manager replica set.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-kube-controller-manager-priority-class -d 'The priority class name for the component kube-controller-manager.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-kube-controller-manager-extra-args -d 'Additional command line arguments for kube-controller-manager, e.g. --karmada-kube-controller-manager-extra-args=--v=4.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-controller-manager-image -d 'karmada-controller-manager image.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-controller-manager-replicas -d 'karmada-controller-manager replica set.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-controller-manager-priority-class -d 'The priority class name for the component karmada-controller-manager.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-controller-manager-extra-args -d 'Additional command line arguments for karmada-controller-manager, e.g. --karmada-controller-manager-extra-args=--v=4.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-webhook-image -d 'karmada-webhook image.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-webhook-replicas -d 'karmada-webhook replica set.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-webhook-priority-class -d 'The priority class name for the component karmada-webhook.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-webhook-extra-args -d 'Additional command line arguments for karmada-webhook, e.g. --karmada-webhook-extra-args=--v=4.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-aggregated-apiserver-image -d 'karmada-aggregated-apiserver image.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-aggregated-apiserver-replicas -d 'karmada-aggregated-apiserver replica set.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-aggregated-apiserver-priority-class -d 'The priority class name for the component karmada-aggregated-apiserver.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l karmada-aggregated-apiserver-extra-args -d 'Additional command line arguments for karmada-aggregated-apiserver, e.g. --karmada-aggregated-apiserver-extra-args=--v=4.' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l embedded -d 'Run the embedded control plane on this machine (API server, store and Karmada controllers in one background process) instead of installing into a host cluster'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l foreground -d 'With --embedded: run the control plane in this terminal until interrupted instead of in the background'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l dry-run -d 'Show what would be installed (every object and file) without creating anything; with -o yaml or -o json, print the host cluster objects as applyable manifests'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -l host-only -d 'Stop once the host cluster objects are ready, before connecting to the new karmada-apiserver (for hosts whose NodePort this machine cannot reach). Also happens by itself when the host\'s nodes are simulated (\'controlplane serve --simulate-workloads\')'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand init" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -s n -l namespace -d 'Namespace of the Karmada control plane components in the host cluster' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l kubeconfig -d 'Path to the kubeconfig file of the cluster (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l context -d 'The name of the kubeconfig context to use (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -s d -l karmada-data -d 'With --embedded: the data directory given to \'init --embedded\' [default: as init\'s]' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l dry-run -d 'Show the plan without deleting anything'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -s f -l force -d 'Skip the confirmation prompt (required when there is no terminal to ask on)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l purge-namespace -d 'Also delete the namespace the control plane ran in'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l embedded -d 'Remove the embedded control plane started by \'init --embedded\': stop its process and delete its data directory and PKI'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -l keep-data -d 'Keep the data: on a host cluster, etcd\'s hostPath directory and PVCs (otherwise a Job on etcd\'s node empties the directory); with --embedded, stop the control plane but keep its data directory, so \'init --embedded\' can start it again'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand deinit" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l cluster-namespace -d 'Namespace in the control plane (and the member) where member cluster secrets are stored' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l cluster-context -d 'Context name of the cluster in the kubeconfig; empty means the current context' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l cluster-kubeconfig -d 'Path of the cluster\'s kubeconfig (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l cluster-provider -d 'Provider of the joining cluster (spec.provider)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l cluster-region -d 'Region of the joining cluster (spec.region)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l cluster-zones -d 'Zones of the joining cluster, comma-separated (spec.zones)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l karmada-as -d 'Username to impersonate for requests to the Karmada control plane' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l karmada-as-group -d 'Group to impersonate for requests to the Karmada control plane; repeat for several groups' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l karmada-as-uid -d 'UID to impersonate for requests to the Karmada control plane' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -l dry-run -d 'Run the command in dry-run mode, without making any server requests'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand join" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l cluster-namespace -d 'Namespace in the control plane where member cluster secrets are stored' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l cluster-context -d 'Context name of the cluster in the kubeconfig; empty means the context named like the cluster' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l cluster-kubeconfig -d 'Path of the cluster\'s kubeconfig; when empty, the member cluster is not cleaned up' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l wait -d 'How long to wait for the cluster\'s resources to be removed, e.g. 1m0s' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l force -d 'Delete the cluster object even if its resources cannot be removed within --wait'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -l dry-run -d 'Run the command in dry-run mode, without making any server requests'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unjoin" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -f -a "create" -d 'Create a bootstrap token on the Karmada control plane'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -f -a "list" -d 'List bootstrap tokens on the Karmada control plane'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and not __fish_seen_subcommand_from create list delete" -f -a "delete" -d 'Delete bootstrap tokens on the Karmada control plane, by ID or by full token'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l ttl -d 'How long the token is valid before it is deleted, e.g. 24h0m0s; 0 means it never expires' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l usages -d 'Ways the token may be used: signing (cluster-info), authentication' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l groups -d 'Extra groups the token authenticates as; each must start with system:bootstrappers:' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l description -d 'A human-friendly description of how the token is used' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -l print-register-command -d 'Print the full `register` command a member cluster runs with this token'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -s o -l output -d 'Output format: json or yaml (default: a table)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand token; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l kubeconfig -d 'Path to the kubeconfig file of the cluster (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l context -d 'The name of the kubeconfig context to use (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -s n -l namespace -d 'Namespace the karmada-agent runs in, in the member cluster' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l cluster-name -d 'Name of the member cluster in the control plane (default: the cluster of the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l cluster-namespace -d 'Namespace in the control plane where member cluster secrets are stored' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l cluster-provider -d 'Provider of the joining cluster (spec.provider)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l cluster-region -d 'Region of the joining cluster (spec.region)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l cluster-zones -d 'Zones of the joining cluster, comma-separated (spec.zones)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l token -d 'The bootstrap token, from `token create` on the control plane' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l discovery-token-ca-cert-hash -d 'Pin of the control plane\'s CA public key, sha256:<hex>; repeat or comma-separate for several' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l discovery-timeout -d 'How long to wait for discovery, certificate signing and the agent to become ready' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l karmada-agent-image -d 'Image of the karmada-agent deployed into the member cluster' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l karmada-agent-replicas -d 'Number of karmada-agent replicas' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l cert-expiration-seconds -d 'Validity of the agent\'s client certificate, in seconds' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l proxy-server-address -d 'Address of the proxy server the agent uses to reach the member\'s API server' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l agent-mode -d 'Where the agent runs: \'deployment\' deploys the karmada-agent image into the member (as upstream does); \'local\' runs the agent built into this binary as a background process on this machine, for members it can reach (simulated members, bastion hosts)' -r -f -a "deployment\t'A `karmada-agent` Deployment in the member, as upstream deploys it'
local\t'The agent built into this binary, as a background process on this machine'"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l agent-dir -d 'Directory of the local agent\'s kubeconfig, pid and log (with --agent-mode=local) [default: ~/.karmada/agents/<cluster>]' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l enable-cert-rotation -d 'Let the agent rotate its client certificate before it expires'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l discovery-token-unsafe-skip-ca-verification -d 'Trust the control plane without pinning its CA (unsafe: another server could impersonate it)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -l dry-run -d 'Run the pre-flight checks only, without changing anything'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand register" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l cluster-kubeconfig -d 'Path of the member cluster\'s kubeconfig (required)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l cluster-context -d 'Context in the member kubeconfig (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l karmada-config -d 'Kubeconfig of the Karmada control plane (default: read it from the agent in the member)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l karmada-context -d 'Context in the Karmada kubeconfig' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -s n -l namespace -d 'Namespace the karmada-agent runs in, in the member cluster' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l agent-name -d 'Name of the karmada-agent Deployment in the member cluster' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l cluster-namespace -d 'Namespace in the control plane where member cluster secrets are stored' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l wait -d 'How long to wait for the cluster\'s resources to be removed, e.g. 1m0s' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l agent-dir -d 'Directory of a local agent started by \'register --agent-mode=local\' [default: ~/.karmada/agents/<cluster>]' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l kubeconfig -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l dry-run -d 'Check what would be removed without removing anything'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -l force -d 'When the control plane cannot be reached, remove what is left on this machine and in the member (the local agent, its files, the agent\'s objects) without asking; the plane keeps its side'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand unregister" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -l dry-run -d 'Print what would change without changing it'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand cordon" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -l dry-run -d 'Print what would change without changing it'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand uncordon" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -s l -l selector -d 'Label selector picking the clusters instead of names, e.g. -l key1=value1,key2=value2' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l overwrite -d 'Replace a taint that already exists with the same key and effect'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l all -d 'Select all clusters'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -l dry-run -d 'Print what would change without changing it'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand taint" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s s -l operation-scope -d 'Where to look: karmada (the control plane), members (member clusters), or all' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s C -l clusters -d 'Member clusters to query, comma-separated (default: every registered cluster)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s l -l labels -d 'Label selector to filter on, e.g. -l key1=value1,key2=value2' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s n -l namespace -d 'The namespace scope for this request' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s o -l output -d 'Output format: wide, json, yaml or name' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l template -d 'Template string or path to template file to use when -o=go-template or -o=go-template-file (not built yet: refused)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l allow-missing-template-keys -d 'If true, ignore any errors in templates when a field or map key is missing in the template' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l sort-by -d 'If non-empty, sort list types using this field specification (not built yet: refused)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s L -l label-columns -d 'Accepts a comma separated list of labels that are going to be presented as columns' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s A -l all-namespaces -d 'List the requested objects across all namespaces'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l ignore-not-found -d 'If the requested object does not exist the command will return exit code 0'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s w -l watch -d 'After listing/getting the requested object, watch for changes (one resource type from one source)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l watch-only -d 'Watch for changes to the requested object(s), without listing/getting first'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l output-watch-events -d 'Output watch event objects when --watch or --watch-only is used (not built yet: refused)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l show-managed-fields -d 'If true, keep the managedFields when printing objects in JSON or YAML format'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l show-kind -d 'If present, list the resource type for the requested object(s)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l show-labels -d 'When printing, show all labels as the last column (default hide labels column)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -l no-headers -d 'When using the default or custom-column output format, don\'t print headers'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand get" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -s C -l cluster -d 'The member cluster the resource is promoted from' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l cluster-kubeconfig -d 'Kubeconfig of the member cluster (default: reach it through the control plane\'s proxy)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l cluster-context -d 'Context in the member kubeconfig (default: the context named like the cluster)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l auto-create-policy -d 'Create a PropagationPolicy (or ClusterPropagationPolicy) pinning the resource to the cluster' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l policy-name -d 'Name of the created policy (default: generated from the resource\'s name and kind)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -s o -l output -d 'Print the resource and policy instead of creating them: json or yaml' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -s n -l namespace -d 'The namespace of the resource (default: the kubeconfig\'s namespace, else default)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l kubeconfig -d 'Path to the kubeconfig file of the Karmada control plane (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l karmada-context -d 'The name of the kubeconfig context to use for the Karmada control plane (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -s d -l dependencies -d 'Also promote the resources it depends on (ConfigMaps, Secrets, ServiceAccounts, PVCs)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -l dry-run -d 'Print what would be created without creating it'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand promote" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l kubeconfig -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand completion" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -s o -l output -d 'One of \'yaml\' or \'json\'' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l kubeconfig -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand version" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l kubeconfig -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand options" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and not __fish_seen_subcommand_from serve" -f -a "serve" -d 'Run the control plane\'s API server in the foreground until interrupted'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l data-dir -d 'Directory for the control plane\'s certificates, store and admin kubeconfig (created with mode 0700, or narrowed to 0700 if it exists; it must belong to the user)' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l listen -d 'Address to listen on; port 0 picks a free port' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l cert-external-ip -d 'Extra IP addresses for the serving certificate, comma-separated' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l cert-external-dns -d 'Extra DNS names for the serving certificate, comma-separated' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l watch-history -d 'How long watch history is kept: a watch can resume from any resourceVersion written within this window; older ones get 410 Gone and the client relists' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l min-request-timeout -d 'Seconds a watch lasts at least when the client gives no timeoutSeconds (it gets a random time up to twice this); no watch lasts longer than twice this, whatever it asks for' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l pki-dir -d 'Directory of the PKI (CA, serving and admin certificates, service-account key) when not <data-dir>/pki' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l admin-kubeconfig -d 'Where to write the admin kubeconfig [default: <data-dir>/admin.kubeconfig]' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l cert-validity-period -d 'Validity of newly issued leaf certificates (the CA always gets ten years)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l advertise-address -d 'The IP address clients and members are told to use (kubeconfig, kube-public/cluster-info); defaults to the listen address' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l profile -d 'Which API the server presents: `karmada` (the control plane) or `kubernetes` (a plain Kubernetes API server, as simulated member clusters use)' -r -f -a "karmada\t'The Karmada control plane: Kubernetes built-ins plus the Karmada API'
kubernetes\t'A plain Kubernetes API server (simulated member clusters)'"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l kubeconfig-context -d 'Name of the context and cluster in the admin kubeconfig [default: karmada-apiserver]' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l cluster-status-update-frequency -d 'How often the control plane probes each Push member cluster and updates its status' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l cluster-failure-threshold -d 'How long a member cluster\'s probes must keep failing before its Ready condition turns False' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l cluster-monitor-grace-period -d 'How long a Pull cluster\'s agent may go without renewing its Lease (or changing the Ready condition) before the control plane sets Ready to Unknown' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l cluster-startup-grace-period -d 'How long a new Pull cluster may go without its agent posting a Ready condition before the control plane sets Ready to Unknown' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l kubernetes-version -d 'The Kubernetes version the server reports on /version' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l datastore -d 'Where objects are stored: `sqlite` (a database in the data directory) or `etcd://HOST:PORT[,HOST:PORT...]` (an etcd v3 cluster, which several control planes can share; needs a build with the `etcd` feature)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l etcd-prefix -d 'With an etcd datastore: put this in front of every key (keys are `/registry/...`, as kube-apiserver lays them out), so several control planes can share one etcd' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l etcd-cafile -d 'With an etcd datastore: CA certificate (PEM) that verifies the etcd members; turns on TLS' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l etcd-certfile -d 'With an etcd datastore: client certificate (PEM) presented to etcd; turns on TLS' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l etcd-keyfile -d 'With an etcd datastore: key (PEM) of --etcd-certfile' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l leader-elect-lease-duration -d 'With an etcd datastore, several replicas may serve one plane: all serve the API, and the controllers run on the one holding the Lease kube-system/karmadactl-controlplane. This is how long the lease lasts unrenewed before another replica takes over (the holder renews it every third of this)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l max-requests-inflight -d 'Maximum number of non-mutating requests in flight at a given time. When the server exceeds this, it rejects requests with 429. Zero for no limit. Watches, proxy, exec, attach, log and port-forward requests and health probes are not counted; system:masters is never rejected' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l max-mutating-requests-inflight -d 'Maximum number of mutating requests in flight at a given time. When the server exceeds this, it rejects requests with 429. Zero for no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l read-header-timeout -d 'How long a client may take to send a request\'s headers, counted from the connection\'s start or from the answer to its previous request; the connection is closed after that' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l max-connections-per-source -d 'Open connections allowed from one source address; more are closed at once' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l max-connections -d 'Open connections allowed in total; more are closed at once [default: the open-file limit (raised to its hard limit at start) less an eighth, kept for the store and member clients]' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l max-list-memory -d 'Memory all LIST responses being built or sent may hold together, as a quantity (e.g. 512Mi, 2Gi). A list that would exceed it while others hold it gets 429 and Retry-After [default: a quarter of physical memory]' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l nodes -d 'Number of simulated nodes (with --simulate-workloads)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l pod-ready-delay -d 'How long a simulated pod stays Pending before it reports Running and Ready' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l node-cpu -d 'CPU capacity of each simulated node' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l node-memory -d 'Memory capacity of each simulated node' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l node-pods -d 'Pod capacity of each simulated node' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -l simulate-workloads -d 'Simulate nodes and workloads (only with --profile kubernetes). This is a SIMULATION, not a Kubernetes cluster: nodes are pretend, no container runs; Deployments, ReplicaSets, StatefulSets, DaemonSets and Jobs get pods that report Running and Ready (Jobs: Succeeded) as kube-controller-manager and kubelets would'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand controlplane; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -f -a "up" -d 'Start a Karmada playground: an embedded control plane and SIMULATED member clusters (not real Kubernetes clusters), all joined, with one kubeconfig'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -f -a "down" -d 'Stop the Karmada playground started by \'local up\' and delete its data'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and not __fish_seen_subcommand_from up down member" -f -a "member" -d 'Start, stop and list SIMULATED member clusters. A simulated member is a Kubernetes API server whose nodes and pods are pretend: workloads report Running and Ready, but no container ever runs. Not a real Kubernetes cluster'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l members -d 'Number of simulated member clusters (member1 … memberN)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l nodes -d 'Number of simulated nodes in each member' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l kubernetes-version -d 'The Kubernetes version the members report' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l data-dir -d 'Directory for the playground [default: $XDG_DATA_HOME/karmadactl/local]' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l timeout -d 'How long to wait for every member to be Ready' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -s o -l output -d 'Output format for the result: json or yaml' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from up" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l data-dir -d 'The playground\'s directory [default: $XDG_DATA_HOME/karmadactl/local]' -r -F
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l force -d 'Do not ask for confirmation'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -l dry-run -d 'Print the plan only'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from down" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -s h -l help -d 'Print help'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -f -a "start" -d 'Start a SIMULATED member cluster in the background (not a real Kubernetes cluster: nodes and pods are simulated) and print how to join it'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -f -a "stop" -d 'Stop a simulated member cluster and delete its data (unless --keep-data)'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand local; and __fish_seen_subcommand_from member" -f -a "list" -d 'List the simulated member clusters in the default directory'
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l karmada-kubeconfig -d 'Kubeconfig of the Karmada control plane with the agent\'s credentials' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l karmada-context -d 'Context in --karmada-kubeconfig (default: its current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l kubeconfig -d 'Path to the kubeconfig file of the cluster (default: $KUBECONFIG, then ~/.kube/config)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l context -d 'The name of the kubeconfig context to use (default: the current context)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l cluster-name -d 'Name of the member cluster in the control plane' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l cluster-api-endpoint -d 'The member\'s API endpoint written to the Cluster (default: the server of the member\'s kubeconfig)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l cluster-provider -d 'Provider of the joining cluster (spec.provider)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l cluster-region -d 'Region of the joining cluster (spec.region)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l cluster-zones -d 'Zones of the joining cluster, comma-separated (spec.zones)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l cluster-status-update-frequency -d 'How often the member\'s status is reported to the control plane' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l cluster-lease-duration -d 'How long the cluster Lease holds without renewal (renewed four times per duration)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -s v -l v -d 'Number for the log level verbosity' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l add-dir-header -d 'If true, adds the file directory to the header of the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l alsologtostderr -d 'Log to standard error as well as files (no effect when -logtostderr=true)' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l alsologtostderrthreshold -d 'Logs at or above this threshold go to stderr when writing to files and stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l legacy-stderr-threshold-behavior -d 'If true, stderrthreshold is honoured even when logtostderr=true' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l log-backtrace-at -d 'When logging hits line file:N, emit a stack trace' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l log-dir -d 'If non-empty, write log files in this directory (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l log-file -d 'If non-empty, use this log file (no effect when -logtostderr=true)' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l log-file-max-size -d 'Defines the maximum size a log file can grow to, in megabytes; 0 means no limit' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l logtostderr -d 'Log to standard error instead of files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l one-output -d 'If true, only write logs to their native severity level' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l skip-headers -d 'If true, avoid header prefixes in the log messages' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l skip-log-headers -d 'If true, avoid headers when opening log files' -r -f -a "true\t''
false\t''"
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l stderrthreshold -d 'Logs at or above this threshold go to stderr' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -l vmodule -d 'Comma-separated list of pattern=N settings for file-filtered logging' -r
complete -c karmadactl -n "__fish_karmadactl_using_subcommand agent" -s h -l help -d 'Print help'
