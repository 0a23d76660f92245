//! Every `sh` command block in README.md runs, in order, in one shell, as a new user would type
//! them: the set-up command (with the binary under test installed by install.sh), the playground,
//! and the whole walk through Karmada. A block that fails fails the test and is named.
//!
//! As root (CI), the blocks run in their own mount, network and PID namespaces: root's default
//! paths (/etc/karmada, /var/lib/karmadactl) are fresh tmpfs mounts, the plane's default port
//! cannot clash with anything on the machine, and every process the blocks leave behind ends
//! with the namespace. As another user they run with a temporary HOME, where that user's default
//! paths are.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One fenced `sh` block of the README.
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    text: String,
}

fn sh_blocks(readme: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in readme.lines().enumerate() {
        match current.as_mut() {
            None if line.trim_end() == "```sh" => current = Some(Block { line: i + 1, text: String::new() }),
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.extend(current.take()),
            Some(block) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
        }
    }
    assert!(current.is_none(), "README.md has an unclosed ```sh block");
    blocks
}

/// The README's test command: the one block not run here, because it is what runs this test.
const TEST_COMMAND: &str = "cargo test --locked --features etcd\n";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README's blocks as one script that says which block it is in, so a failure names it.
fn script(blocks: &[Block]) -> String {
    let mut s = String::from("set -euo pipefail\ncd \"$REPO\"\n");
    for b in blocks.iter().filter(|b| b.text != TEST_COMMAND) {
        s.push_str(&format!("echo '=== README.md block at line {}' >&2\n", b.line));
        s.push_str(&b.text);
    }
    s.push_str("echo '=== every README.md block ran' >&2\n");
    s
}

/// Runs `script` as root in fresh namespaces, or directly as another user.
fn run_script(script: &str, home: &Path, bin_dir: &Path) -> common::Run {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = if root {
        // Mount points for root's default paths must exist before the tmpfs goes over them;
        // making them on the host leaves at most two empty directories, which init would make.
        let mut c = Command::new("unshare");
        c.args(["--mount", "--net", "--pid", "--fork", "--mount-proc", "bash", "-c"]);
        c.arg(format!(
            "set -e; ip link set lo up; for d in /etc/karmada /var/lib/karmadactl; do mkdir -p $d; \
             mount -t tmpfs -o mode=0700 none $d; done; exec timeout 600 bash -c {}",
            shell_quote(script)
        ));
        c
    } else {
        let mut c = Command::new("timeout");
        c.args(["600", "bash", "-c", script]);
        c
    };
    cmd.env_clear()
        .env("HOME", home)
        .env("PATH", path)
        .env("LANG", "C.UTF-8")
        .env("REPO", repo())
        .env("INSTALL_BINARY", common::bin());
    common::run(cmd)
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn every_readme_command_block_runs() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README.md is readable");
    let blocks = sh_blocks(&readme);
    let test_command: Vec<_> = blocks.iter().filter(|b| b.text == TEST_COMMAND).collect();
    assert_eq!(test_command.len(), 1, "README.md shows the test command `{}` once", TEST_COMMAND.trim());
    let ci = std::fs::read_to_string(repo().join(".ci/run")).expect(".ci/run is readable");
    assert_eq!(
        ci.lines().rfind(|l| !l.trim().is_empty()),
        Some(TEST_COMMAND.trim()),
        ".ci/run must end by running exactly the README's test command"
    );
    assert!(
        blocks.first().is_some_and(|b| b.text.starts_with("./install.sh && ~/.local/bin/karmadactl init --embedded")),
        "README.md's first block is the set-up command"
    );

    // `kubectl` in the README is the newest kubectl the machine ships.
    let bin_dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(common::kubectl_binary("1.33"), bin_dir.path().join("kubectl")).unwrap();
    let home = tempfile::tempdir().unwrap();
    let out = run_script(&script(&blocks), home.path(), bin_dir.path());
    let tail: String = {
        let lines: Vec<&str> = out.stderr.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    };
    assert_eq!(
        out.code, 0,
        "a README.md block failed (exit {}):\n--- stdout\n{}\n--- stderr (end)\n{tail}",
        out.code, out.stdout
    );
    assert!(out.stderr.contains("=== every README.md block ran"), "the script stopped early:\n{tail}");
    // The walk-through's observable results, from its own commands' output.
    for expected in ["member3   v1.33.0   Pull", "deployment \"nginx\" successfully rolled out", "condition met"] {
        assert!(out.stdout.contains(expected), "README output lacks {expected:?}:\n{}", out.stdout);
    }
}

#[test]
fn blocks_are_found_with_their_lines() {
    let blocks = sh_blocks("text\n```sh\na\nb\n```\n```\nnot sh\n```\n```sh\nc\n```\n");
    let found: Vec<(usize, &str)> = blocks.iter().map(|b| (b.line, b.text.as_str())).collect();
    assert_eq!(found, vec![(2, "a\nb\n"), (9, "c\n")]);
}
