//! Generated artefacts are committed (completions/, docs/cli/) and must match the command tree.
//! Regenerate with `UPDATE_GENERATED=1 cargo test --test it generated::`.

use std::path::{Path, PathBuf};

use karmadactl::cli::Flavour;
use karmadactl::cmd::completion::{SHELLS, script};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compares (or, with UPDATE_GENERATED=1, rewrites) one generated file.
fn check(path: &Path, fresh: &str, stale: &mut Vec<String>) {
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, fresh).unwrap();
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(committed) if committed == fresh => {}
        Ok(_) => stale.push(format!("{} differs", path.display())),
        Err(e) => stale.push(format!("{} cannot be read: {e}", path.display())),
    }
}

fn file_name(shell: &str) -> String {
    match shell {
        "bash" => "karmadactl.bash".into(),
        "zsh" => "_karmadactl".into(),
        "fish" => "karmadactl.fish".into(),
        "powershell" => "karmadactl.ps1".into(),
        other => panic!("no file name for {other}"),
    }
}

#[test]
fn completions_are_current() {
    let mut stale = Vec::new();
    for (name, shell) in SHELLS {
        check(&root().join("completions").join(file_name(name)), &script(*shell, Flavour::Standalone), &mut stale);
    }
    assert!(stale.is_empty(), "stale completions (run UPDATE_GENERATED=1 cargo test --test it generated::): {stale:?}");
}

#[test]
fn cli_reference_is_current() {
    let mut stale = Vec::new();
    let pages = karmadactl::cli::docs::pages();
    let dir = root().join("docs/cli");
    for (name, text) in &pages {
        check(&dir.join(name), text, &mut stale);
    }
    if std::env::var_os("UPDATE_GENERATED").is_none() {
        // A page for a command that no longer exists is stale too.
        for entry in std::fs::read_dir(&dir).expect("docs/cli exists") {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if !pages.iter().any(|(p, _)| *p == name) {
                stale.push(format!("docs/cli/{name} has no command"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale CLI reference (run UPDATE_GENERATED=1 cargo test --test it generated::): {stale:?}"
    );
    assert!(pages.iter().any(|(n, _)| n == "karmadactl_token_create.md"));
}

#[test]
fn bash_completion_script_loads_in_bash() {
    let script = root().join("completions/karmadactl.bash");
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("source '{}' && complete -p karmadactl", script.display()))
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("karmadactl"), "{printed}");
    // The script asks the binary for candidates: ask bash for the words after `karmadactl to`.
    let bin_dir = std::path::Path::new(env!("CARGO_BIN_EXE_karmadactl")).parent().unwrap().to_path_buf();
    let out = std::process::Command::new("bash")
        .env("PATH", format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default()))
        .arg("-c")
        .arg(format!(
            "source '{}'; COMP_WORDS=(karmadactl to); COMP_CWORD=1; COMP_LINE='karmadactl to'; COMP_POINT=13; \
             _karmadactl karmadactl to karmadactl; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        ))
        .output()
        .expect("bash runs");
    let words = String::from_utf8_lossy(&out.stdout);
    assert!(words.lines().any(|w| w == "token"), "bash completion did not offer `token`: {words:?}");
}

#[test]
fn zsh_and_fish_scripts_name_the_binary() {
    let zsh = std::fs::read_to_string(root().join("completions/_karmadactl")).unwrap();
    assert!(zsh.starts_with("#compdef karmadactl"), "{}", &zsh[..zsh.len().min(80)]);
    let fish = std::fs::read_to_string(root().join("completions/karmadactl.fish")).unwrap();
    assert!(fish.contains("complete -c karmadactl"), "fish script does not complete karmadactl");
}
