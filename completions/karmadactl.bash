# bash completion for karmadactl
_karmadactl() {
    local line="${COMP_LINE:0:COMP_POINT}"
    local -a words
    read -ra words <<< "$line"
    if [[ -z "$line" || "$line" == *[[:space:]] ]]; then
        words+=("")
    fi
    local cur="${words[${#words[@]}-1]}"
    local IFS=$'\n'
    COMPREPLY=($("karmadactl" __complete "${words[@]:1}" 2>/dev/null))
    if [[ "$cur" == *=* && "$COMP_WORDBREAKS" == *=* ]]; then
        COMPREPLY=("${COMPREPLY[@]#*=}")
    fi
    return 0
}
complete -o default -F _karmadactl karmadactl
