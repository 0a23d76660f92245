_karmadactl() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="karmadactl"
                ;;
            karmadactl,agent)
                cmd="karmadactl__subcmd__agent"
                ;;
            karmadactl,completion)
                cmd="karmadactl__subcmd__completion"
                ;;
            karmadactl,controlplane)
                cmd="karmadactl__subcmd__controlplane"
                ;;
            karmadactl,cordon)
                cmd="karmadactl__subcmd__cordon"
                ;;
            karmadactl,deinit)
                cmd="karmadactl__subcmd__deinit"
                ;;
            karmadactl,get)
                cmd="karmadactl__subcmd__get"
                ;;
            karmadactl,init)
                cmd="karmadactl__subcmd__init"
                ;;
            karmadactl,join)
                cmd="karmadactl__subcmd__join"
                ;;
            karmadactl,local)
                cmd="karmadactl__subcmd__local"
                ;;
            karmadactl,options)
                cmd="karmadactl__subcmd__options"
                ;;
            karmadactl,promote)
                cmd="karmadactl__subcmd__promote"
                ;;
            karmadactl,register)
                cmd="karmadactl__subcmd__register"
                ;;
            karmadactl,taint)
                cmd="karmadactl__subcmd__taint"
                ;;
            karmadactl,token)
                cmd="karmadactl__subcmd__token"
                ;;
            karmadactl,uncordon)
                cmd="karmadactl__subcmd__uncordon"
                ;;
            karmadactl,unjoin)
                cmd="karmadactl__subcmd__unjoin"
                ;;
            karmadactl,unregister)
                cmd="karmadactl__subcmd__unregister"
                ;;
            karmadactl,version)
                cmd="karmadactl__subcmd__version"
                ;;
            karmadactl__subcmd__controlplane,serve)
                cmd="karmadactl__subcmd__controlplane__subcmd__serve"
                ;;
            karmadactl__subcmd__local,down)
                cmd="karmadactl__subcmd__local__subcmd__down"
                ;;
            karmadactl__subcmd__local,member)
                cmd="karmadactl__subcmd__local__subcmd__member"
                ;;
            karmadactl__subcmd__local,up)
                cmd="karmadactl__subcmd__local__subcmd__up"
                ;;
            karmadactl__subcmd__local__subcmd__member,list)
                cmd="karmadactl__subcmd__local__subcmd__member__subcmd__list"
                ;;
            karmadactl__subcmd__local__subcmd__member,start)
                cmd="karmadactl__subcmd__local__subcmd__member__subcmd__start"
                ;;
            karmadactl__subcmd__local__subcmd__member,stop)
                cmd="karmadactl__subcmd__local__subcmd__member__subcmd__stop"
                ;;
            karmadactl__subcmd__token,create)
                cmd="karmadactl__subcmd__token__subcmd__create"
                ;;
            karmadactl__subcmd__token,delete)
                cmd="karmadactl__subcmd__token__subcmd__delete"
                ;;
            karmadactl__subcmd__token,list)
                cmd="karmadactl__subcmd__token__subcmd__list"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        karmadactl)
            opts="-v -h --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help init deinit join unjoin token register unregister cordon uncordon taint get promote completion version options controlplane local agent"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__agent)
            opts="-v -h --karmada-kubeconfig --karmada-context --kubeconfig --context --cluster-name --cluster-api-endpoint --cluster-provider --cluster-region --cluster-zones --cluster-status-update-frequency --cluster-lease-duration --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --karmada-kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-api-endpoint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-provider)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-region)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-zones)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-status-update-frequency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-lease-duration)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__completion)
            opts="-v -h --kubeconfig --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__controlplane)
            opts="-v -h --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help serve"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__controlplane__subcmd__serve)
            opts="-v -h --data-dir --listen --cert-external-ip --cert-external-dns --watch-history --min-request-timeout --pki-dir --admin-kubeconfig --cert-validity-period --advertise-address --profile --kubeconfig-context --cluster-status-update-frequency --cluster-failure-threshold --cluster-monitor-grace-period --cluster-startup-grace-period --kubernetes-version --datastore --etcd-prefix --etcd-cafile --etcd-certfile --etcd-keyfile --leader-elect-lease-duration --max-requests-inflight --max-mutating-requests-inflight --read-header-timeout --max-connections-per-source --max-connections --max-list-memory --simulate-workloads --nodes --pod-ready-delay --node-cpu --node-memory --node-pods --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-external-ip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-external-dns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --watch-history)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-request-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pki-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --admin-kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-validity-period)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --advertise-address)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -W "karmada kubernetes" -- "${cur}"))
                    return 0
                    ;;
                --kubeconfig-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-status-update-frequency)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-failure-threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-monitor-grace-period)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-startup-grace-period)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubernetes-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --datastore)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-cafile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-certfile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-keyfile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --leader-elect-lease-duration)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-requests-inflight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-mutating-requests-inflight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --read-header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections-per-source)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-list-memory)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-ready-delay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-cpu)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-memory)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --node-pods)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__cordon)
            opts="-v -h --dry-run --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__deinit)
            opts="-n -f -d -v -h --namespace --kubeconfig --context --dry-run --force --purge-namespace --embedded --karmada-data --keep-data --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__get)
            opts="-s -C -l -A -w -n -o -L -v -h --operation-scope --clusters --labels --all-namespaces --ignore-not-found --watch --watch-only --output-watch-events --namespace --output --template --allow-missing-template-keys --show-managed-fields --show-kind --show-labels --sort-by --label-columns --no-headers --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --operation-scope)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -s)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clusters)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow-missing-template-keys)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --sort-by)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --label-columns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -L)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__init)
            opts="-n -p -d -o -v -h --private-image-registry --image-pull-policy --image-pull-secrets --kube-image-mirror-country --kube-image-registry --kube-image-tag --cert-external-ip --cert-external-dns --cert-validity-period --ca-cert-file --ca-key-file --namespace --storage-classes-name --kubeconfig --context --host-cluster-domain --etcd-storage-mode --etcd-data --etcd-node-selector-labels --etcd-pvc-size --external-etcd-ca-cert-path --external-etcd-client-cert-path --external-etcd-client-key-path --external-etcd-servers --external-etcd-key-prefix --crds --config --karmada-apiserver-advertise-address --port --karmada-data --karmada-pki --embedded --datastore --foreground --output --dry-run --host-only --wait-component-ready-timeout --etcd-image --etcd-replicas --etcd-priority-class --etcd-extra-args --karmada-apiserver-image --karmada-apiserver-replicas --karmada-apiserver-priority-class --karmada-apiserver-extra-args --karmada-scheduler-image --karmada-scheduler-replicas --karmada-scheduler-priority-class --karmada-scheduler-extra-args --karmada-kube-controller-manager-image --karmada-kube-controller-manager-replicas --karmada-kube-controller-manager-priority-class --karmada-kube-controller-manager-extra-args --karmada-controller-manager-image --karmada-controller-manager-replicas --karmada-controller-manager-priority-class --karmada-controller-manager-extra-args --karmada-webhook-image --karmada-webhook-replicas --karmada-webhook-priority-class --karmada-webhook-extra-args --karmada-aggregated-apiserver-image --karmada-aggregated-apiserver-replicas --karmada-aggregated-apiserver-priority-class --karmada-aggregated-apiserver-extra-args --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --private-image-registry)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --image-pull-policy)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --image-pull-secrets)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-image-mirror-country)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-image-registry)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kube-image-tag)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-external-ip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-external-dns)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-validity-period)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca-cert-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ca-key-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --storage-classes-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host-cluster-domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-storage-mode)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-node-selector-labels)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-pvc-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --external-etcd-ca-cert-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --external-etcd-client-cert-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --external-etcd-client-key-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --external-etcd-servers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --external-etcd-key-prefix)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-apiserver-advertise-address)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -p)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-data)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -d)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-pki)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --datastore)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait-component-ready-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-priority-class)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --etcd-extra-args)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-apiserver-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-apiserver-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-apiserver-priority-class)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-apiserver-extra-args)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-scheduler-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-scheduler-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-scheduler-priority-class)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-scheduler-extra-args)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-kube-controller-manager-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-kube-controller-manager-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-kube-controller-manager-priority-class)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-kube-controller-manager-extra-args)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-controller-manager-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-controller-manager-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-controller-manager-priority-class)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-controller-manager-extra-args)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-webhook-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-webhook-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-webhook-priority-class)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-webhook-extra-args)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-aggregated-apiserver-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-aggregated-apiserver-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-aggregated-apiserver-priority-class)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-aggregated-apiserver-extra-args)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__join)
            opts="-v -h --cluster-namespace --cluster-context --cluster-kubeconfig --cluster-provider --cluster-region --cluster-zones --karmada-as --karmada-as-group --karmada-as-uid --dry-run --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cluster-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-provider)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-region)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-zones)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-as)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-as-group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-as-uid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__local)
            opts="-v -h --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help up down member"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__local__subcmd__down)
            opts="-v -h --data-dir --force --dry-run --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__local__subcmd__member)
            opts="-v -h --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help start stop list"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__local__subcmd__member__subcmd__list)
            opts="-o -v -h --output --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__local__subcmd__member__subcmd__start)
            opts="-o -v -h --nodes --kubernetes-version --pod-ready-delay --address --port --data-dir --foreground --output --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubernetes-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pod-ready-delay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --address)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__local__subcmd__member__subcmd__stop)
            opts="-v -h --data-dir --keep-data --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__local__subcmd__up)
            opts="-o -v -h --members --nodes --kubernetes-version --data-dir --timeout --output --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --members)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --nodes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubernetes-version)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__options)
            opts="-v -h --kubeconfig --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__promote)
            opts="-C -d -o -n -v -h --cluster --cluster-kubeconfig --cluster-context --dependencies --auto-create-policy --policy-name --output --dry-run --namespace --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cluster)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -C)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auto-create-policy)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --policy-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__register)
            opts="-n -v -h --kubeconfig --context --namespace --cluster-name --cluster-namespace --cluster-provider --cluster-region --cluster-zones --enable-cert-rotation --token --discovery-token-ca-cert-hash --discovery-token-unsafe-skip-ca-verification --discovery-timeout --karmada-agent-image --karmada-agent-replicas --cert-expiration-seconds --dry-run --proxy-server-address --agent-mode --agent-dir --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-provider)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-region)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-zones)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --token)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --discovery-token-ca-cert-hash)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --discovery-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-agent-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-agent-replicas)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cert-expiration-seconds)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --proxy-server-address)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-mode)
                    COMPREPLY=($(compgen -W "deployment local" -- "${cur}"))
                    return 0
                    ;;
                --agent-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__taint)
            opts="-l -v -h --overwrite --selector --all --dry-run --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --selector)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -l)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__token)
            opts="-v -h --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help create list delete"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__token__subcmd__create)
            opts="-v -h --print-register-command --ttl --usages --groups --description --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --ttl)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --usages)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --groups)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__token__subcmd__delete)
            opts="-v -h --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__token__subcmd__list)
            opts="-o -v -h --output --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__uncordon)
            opts="-v -h --dry-run --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__unjoin)
            opts="-v -h --cluster-namespace --cluster-context --cluster-kubeconfig --force --wait --dry-run --kubeconfig --karmada-context --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cluster-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__unregister)
            opts="-n -v -h --cluster-kubeconfig --cluster-context --karmada-config --karmada-context --namespace --agent-name --cluster-namespace --wait --dry-run --agent-dir --force --kubeconfig --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --cluster-kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --karmada-context)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cluster-namespace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --agent-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        karmadactl__subcmd__version)
            opts="-o -v -h --output --kubeconfig --v --add-dir-header --alsologtostderr --alsologtostderrthreshold --legacy-stderr-threshold-behavior --log-backtrace-at --log-dir --log-file --log-file-max-size --logtostderr --one-output --skip-headers --skip-log-headers --stderrthreshold --vmodule --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kubeconfig)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -v)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --add-dir-header)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --alsologtostderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --legacy-stderr-threshold-behavior)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --log-backtrace-at)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --log-file-max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --logtostderr)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --one-output)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --skip-log-headers)
                    COMPREPLY=($(compgen -W "true false" -- "${cur}"))
                    return 0
                    ;;
                --stderrthreshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --vmodule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _karmadactl -o nosort -o bashdefault -o default karmadactl
else
    complete -F _karmadactl -o bashdefault -o default karmadactl
fi
