//! The bash, zsh and fish completion scripts. Each asks the binary itself for candidates
//! (`<binary> __complete <words…>`), so cluster names, contexts and kinds come from the
//! user's own plane and kubeconfig at the moment they press Tab.

/// The bash script: rebuilds the words from `COMP_LINE` up to the cursor so `--flag=value` stays
/// one word, then strips the `--flag=` part bash already treats as typed.
pub fn bash(bin: &str) -> String {
    let func = function_name(bin);
    format!(
        r#"# bash completion for {bin}
{func}() {{
    local line="${{COMP_LINE:0:COMP_POINT}}"
    local -a words
    read -ra words <<< "$line"
    if [[ -z "$line" || "$line" == *[[:space:]] ]]; then
        words+=("")
    fi
    local cur="${{words[${{#words[@]}}-1]}}"
    local IFS=$'\n'
    COMPREPLY=($("{bin}" __complete "${{words[@]:1}}" 2>/dev/null))
    if [[ "$cur" == *=* && "$COMP_WORDBREAKS" == *=* ]]; then
        COMPREPLY=("${{COMPREPLY[@]#*=}}")
        cur="${{cur#*=}}"
    fi
    if [[ "${{COMPREPLY[0]}}" == ":files" ]]; then
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}}
complete -F {func} {bin}
"#
    )
}

/// The zsh script.
pub fn zsh(bin: &str) -> String {
    let func = function_name(bin);
    format!(
        r#"#compdef {bin}
# zsh completion for {bin}
{func}() {{
    local -a candidates
    candidates=("${{(@f)$("{bin}" __complete "${{(@)words[2,$CURRENT]}}" 2>/dev/null)}}")
    candidates=(${{candidates:#}})
    if [[ "$PREFIX" == -*=* ]]; then
        compset -P '*='
        candidates=("${{(@)candidates#*=}}")
    fi
    if [[ "${{candidates[1]}}" == ":files" ]]; then
        _files
        return
    fi
    compadd -a candidates
}}
if [[ "$funcstack[1]" = "{func}" ]]; then
    {func} "$@"
else
    compdef {func} {bin}
fi
"#
    )
}

/// The fish script.
pub fn fish(bin: &str) -> String {
    let func = function_name(bin);
    format!(
        r#"# fish completion for {bin}
function {func}
    set -l tokens (commandline -opc) (commandline -ct)
    set -l candidates ("{bin}" __complete $tokens[2..-1] 2>/dev/null)
    if test "$candidates[1]" = ":files"
        __fish_complete_path (string replace -r '^-[^=]*=' '' -- (commandline -ct))
    else
        printf '%s\n' $candidates
    end
end
complete -c {bin} -f -a '({func})'
"#
    )
}

/// A shell function name derived from the binary name (`kubectl-karmada` → `_kubectl_karmada`).
fn function_name(bin: &str) -> String {
    format!("_{}", bin.replace('-', "_"))
}
