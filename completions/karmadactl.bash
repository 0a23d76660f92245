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
        cur="${cur#*=}"
    fi
    if [[ "${COMPREPLY[0]}" == ":files" ]]; then
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}
complete -F _karmadactl karmadactl
