# fish completion for karmadactl
function _karmadactl
    set -l tokens (commandline -opc) (commandline -ct)
    "karmadactl" __complete $tokens[2..-1] 2>/dev/null
end
complete -c karmadactl -f -a '(_karmadactl)'
