# fish completion for karmadactl
function _karmadactl
    set -l tokens (commandline -opc) (commandline -ct)
    set -l candidates ("karmadactl" __complete $tokens[2..-1] 2>/dev/null)
    if test "$candidates[1]" = ":files"
        __fish_complete_path (string replace -r '^-[^=]*=' '' -- (commandline -ct))
    else
        printf '%s\n' $candidates
    end
end
complete -c karmadactl -f -a '(_karmadactl)'
