//! The user's editor, chosen and started as kubectl starts it: `KUBE_EDITOR`, then `EDITOR`,
//! then `vi`; a value with spaces is split into words, or run by the shell when it quotes or
//! escapes. The text to edit goes to a temporary file named after the binary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most bytes read back from the edited file: far above any object the server takes.
const MAX_EDITED_BYTES: u64 = 16 << 20;

/// The editor command: words, and whether they go through the shell.
fn editor_command() -> (Vec<String>, bool) {
    let editor = ["KUBE_EDITOR", "EDITOR"]
        .iter()
        .filter_map(|e| std::env::var(e).ok())
        .find(|v| !v.is_empty())
        .unwrap_or_else(|| "vi".to_string());
    if !editor.contains(' ') {
        return (vec![editor], false);
    }
    if !editor.contains(['"', '\'', '\\']) {
        return (editor.split(' ').map(str::to_string).collect(), false);
    }
    let shell = std::env::var("SHELL").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "/bin/bash".into());
    (vec![shell, "-c".into(), editor], true)
}

/// Writes `text` to a new temporary file (`<prefix>*<suffix>`), opens the editor on it and
/// returns what it holds afterwards, with its path.
pub fn launch_temp_file(prefix: &str, suffix: &str, text: &[u8]) -> anyhow::Result<(Vec<u8>, PathBuf)> {
    // Kept after the edit: a failed one tells the user where their changes are.
    let path = create_temp(prefix, suffix, text)?;
    let (editor, shell) = editor_command();
    let mut words = editor.clone();
    match shell {
        // The shell gets one command line: the path quoted after the editor's words.
        true => {
            let last = words.pop().unwrap_or_default();
            words.push(format!("{last} {:?}", path.display().to_string()));
        }
        false => words.push(path.display().to_string()),
    }
    let status = Command::new(&words[0]).args(&words[1..]).status();
    if !status.as_ref().is_ok_and(|s| s.success()) {
        let quoted: Vec<String> = editor.iter().map(|w| format!("{w:?}")).collect();
        anyhow::bail!("there was a problem with the editor [{}]", quoted.join(" "));
    }
    Ok((read_back(&path)?, path))
}

/// A new file only this user can read, in the temporary directory, holding `text`.
fn create_temp(prefix: &str, suffix: &str, text: &[u8]) -> anyhow::Result<PathBuf> {
    use std::os::unix::fs::OpenOptionsExt;
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    for attempt in 0..100u128 {
        let n = (seed.wrapping_mul(6364136223846793005).wrapping_add(attempt * 1442695040888963407)) % 10_000_000_000;
        let path = std::env::temp_dir().join(format!("{prefix}{n}{suffix}"));
        match std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path) {
            Ok(mut file) => {
                file.write_all(text)?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e.into()),
        }
    }
    anyhow::bail!("could not create a temporary file in {}", std::env::temp_dir().display())
}

fn read_back(path: &Path) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let mut data = Vec::new();
    std::fs::File::open(path)?.take(MAX_EDITED_BYTES + 1).read_to_end(&mut data)?;
    if data.len() as u64 > MAX_EDITED_BYTES {
        anyhow::bail!("the edited file is larger than {MAX_EDITED_BYTES} bytes");
    }
    Ok(data)
}
