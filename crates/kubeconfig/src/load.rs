//! Finding, reading and merging kubeconfig files with kubectl's precedence and merge rules.

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use karmadactl_karmada_api::wellknown::ENV_KUBECONFIG;
use kube::config::Kubeconfig;

use super::KubeconfigError;
use super::resolve::{ResolvedContext, resolve};

/// Where to look for kubeconfig files, following kubectl: an explicit path wins, else every file
/// listed in `KUBECONFIG`, else `~/.kube/config`.
///
/// The environment is captured in the struct (instead of read while loading) so tests can
/// describe any environment without touching the process's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadRules {
    /// The `--kubeconfig` path. When set, it must exist, and nothing else is read.
    pub explicit_path: Option<PathBuf>,
    /// The value of `KUBECONFIG`: a list of paths joined with the platform separator (`:`).
    pub env_kubeconfig: Option<OsString>,
    /// The home directory; `<home>/.kube/config` is the last resort.
    pub home: Option<PathBuf>,
}

impl LoadRules {
    /// Rules from this process's environment (`KUBECONFIG`, `HOME`), with no explicit path.
    pub fn from_env() -> Self {
        let non_empty = |v: OsString| if v.is_empty() { None } else { Some(v) };
        Self {
            explicit_path: None,
            env_kubeconfig: std::env::var_os(ENV_KUBECONFIG).and_then(non_empty),
            home: std::env::var_os("HOME").and_then(non_empty).map(PathBuf::from),
        }
    }

    /// Sets the explicit path (the `--kubeconfig` flag). An empty path means "not given", as
    /// kubectl treats `--kubeconfig=""`, so a flag's default can be passed straight through.
    pub fn with_explicit_path(mut self, path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        self.explicit_path = if path.as_os_str().is_empty() { None } else { Some(path) };
        self
    }

    /// The files kubectl would consider, in priority order.
    ///
    /// `KUBECONFIG` wins over the home file whenever it is set to a non-empty value, even if
    /// every path in it is empty or missing (client-go does not fall back to `~/.kube/config`
    /// then either). Duplicate entries are dropped, keeping the first.
    pub fn candidates(&self) -> Vec<PathBuf> {
        if let Some(path) = &self.explicit_path {
            return vec![path.clone()];
        }
        if let Some(list) = self.env_kubeconfig.as_ref().filter(|v| !v.is_empty()) {
            let mut seen = HashSet::new();
            return std::env::split_paths(list)
                .filter(|p| !p.as_os_str().is_empty())
                .filter(|p| seen.insert(p.clone()))
                .collect();
        }
        match &self.home {
            Some(home) => vec![home.join(".kube").join("config")],
            None => Vec::new(),
        }
    }

    /// Reads and merges the kubeconfig files these rules point at.
    ///
    /// An explicit path must exist. Missing files from `KUBECONFIG` or the home directory are
    /// skipped as kubectl skips them; if nothing at all was found the error begins with
    /// upstream's `Missing or incomplete configuration info.`. Unreadable or malformed files
    /// are errors that name the file.
    pub fn load(&self) -> Result<LoadedKubeconfig, KubeconfigError> {
        let candidates = self.candidates();
        let mut files = Vec::new();
        for path in &candidates {
            match read_file(path)? {
                Some(kc) => files.push((path.clone(), kc)),
                None if self.explicit_path.is_some() => {
                    return Err(KubeconfigError::ExplicitPathMissing { path: path.clone() });
                }
                None => {}
            }
        }
        if files.is_empty() {
            return Err(KubeconfigError::NoConfiguration { searched: candidates });
        }
        Ok(merge_kubectl(files))
    }
}

/// One of the three named lists of a kubeconfig.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// `clusters`
    Cluster,
    /// `users`
    User,
    /// `contexts`
    Context,
}

/// The merged result of loading: the kubeconfig plus which file each entry came from.
#[derive(Clone)]
pub struct LoadedKubeconfig {
    config: Kubeconfig,
    files: Vec<PathBuf>,
    clusters: BTreeMap<String, usize>,
    users: BTreeMap<String, usize>,
    contexts: BTreeMap<String, usize>,
    current_context: Option<usize>,
}

impl LoadedKubeconfig {
    /// The merged kubeconfig. Relative file references in it are already absolute.
    pub fn config(&self) -> &Kubeconfig {
        &self.config
    }

    /// Gives up the origin bookkeeping and returns the merged kubeconfig.
    pub fn into_config(self) -> Kubeconfig {
        self.config
    }

    /// The files that were read, in priority order.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The file whose definition of the named entry won the merge.
    pub fn origin(&self, kind: EntryKind, name: &str) -> Option<&Path> {
        let map = match kind {
            EntryKind::Cluster => &self.clusters,
            EntryKind::User => &self.users,
            EntryKind::Context => &self.contexts,
        };
        map.get(name).and_then(|i| self.files.get(*i)).map(PathBuf::as_path)
    }

    /// The file that set the winning `current-context`.
    pub fn current_context_origin(&self) -> Option<&Path> {
        self.current_context.and_then(|i| self.files.get(i)).map(PathBuf::as_path)
    }

    /// Resolves a context of the merged kubeconfig; see [`resolve`].
    pub fn resolve(&self, context: Option<&str>) -> Result<ResolvedContext, KubeconfigError> {
        resolve(&self.config, context)
    }
}

// Manual: kube's `Debug` would print auth-provider configs and exec env, which may hold secrets.
impl fmt::Debug for LoadedKubeconfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoadedKubeconfig")
            .field("files", &self.files)
            .field("clusters", &self.clusters.keys().collect::<Vec<_>>())
            .field("users", &self.users.keys().collect::<Vec<_>>())
            .field("contexts", &self.contexts.keys().collect::<Vec<_>>())
            .field("current_context", &self.config.current_context)
            .finish()
    }
}

/// Merges kubeconfigs the way kubectl merges the files of `KUBECONFIG`.
///
/// For clusters, users and contexts the first file that defines a name wins as a whole (no
/// field-by-field merge). `current-context` comes from the first file that sets it to a
/// non-empty value (an empty string counts as unset, as in client-go). Other top-level values
/// follow the same first-wins rule. kube's own `Kubeconfig::merge` differs: it lets an empty
/// `current-context` win and rejects files whose `kind`/`apiVersion` differ.
pub fn merge_kubectl(files: Vec<(PathBuf, Kubeconfig)>) -> LoadedKubeconfig {
    let mut out = LoadedKubeconfig {
        config: Kubeconfig::default(),
        files: Vec::new(),
        clusters: BTreeMap::new(),
        users: BTreeMap::new(),
        contexts: BTreeMap::new(),
        current_context: None,
    };
    for (index, (path, kc)) in files.into_iter().enumerate() {
        out.files.push(path);
        let cfg = &mut out.config;
        for entry in kc.clusters {
            if !out.clusters.contains_key(&entry.name) {
                out.clusters.insert(entry.name.clone(), index);
                cfg.clusters.push(entry);
            }
        }
        for entry in kc.auth_infos {
            if !out.users.contains_key(&entry.name) {
                out.users.insert(entry.name.clone(), index);
                cfg.auth_infos.push(entry);
            }
        }
        for entry in kc.contexts {
            if !out.contexts.contains_key(&entry.name) {
                out.contexts.insert(entry.name.clone(), index);
                cfg.contexts.push(entry);
            }
        }
        let unset = cfg.current_context.as_deref().is_none_or(str::is_empty);
        if unset && kc.current_context.as_deref().is_some_and(|c| !c.is_empty()) {
            cfg.current_context = kc.current_context;
            out.current_context = Some(index);
        }
        first_wins(&mut cfg.preferences, kc.preferences);
        first_wins(&mut cfg.extensions, kc.extensions);
        first_wins(&mut cfg.kind, kc.kind);
        first_wins(&mut cfg.api_version, kc.api_version);
        for (key, value) in kc.other {
            cfg.other.entry(key).or_insert(value);
        }
    }
    out
}

fn first_wins<T>(slot: &mut Option<T>, next: Option<T>) {
    if slot.is_none() {
        *slot = next;
    }
}

/// Reads one kubeconfig file. `Ok(None)` means the file does not exist.
///
/// Relative file references (CA, client certificate and key, token file, exec command with a
/// path separator) are made absolute against the file's own directory, as kubectl does.
pub fn read_file(path: &Path) -> Result<Option<Kubeconfig>, KubeconfigError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(KubeconfigError::Read { path: path.to_path_buf(), source }),
    };
    let mut kc = parse(path, &bytes)?;
    // `absolute` only fails for an empty path, which `read` above has already rejected; fall
    // back to the path as given rather than failing a read that succeeded.
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    if let Some(dir) = abs.parent() {
        make_paths_absolute(&mut kc, dir);
    }
    Ok(Some(kc))
}

/// Parses kubeconfig text without touching relative paths. `path` only labels errors.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Kubeconfig, KubeconfigError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|_| KubeconfigError::Parse {
        path: path.to_path_buf(),
        detail: "the file is not UTF-8 text".into(),
    })?;
    let docs: Vec<Kubeconfig> = serde_saphyr::from_multiple(text)
        .map_err(|e| KubeconfigError::Parse { path: path.to_path_buf(), detail: parse_detail(&e) })?;
    let mut merged = Kubeconfig::default();
    for (i, doc) in docs.into_iter().enumerate() {
        check_duplicates(path, &doc)?;
        merged = if i == 0 {
            doc
        } else {
            merge_kubectl(vec![(path.to_path_buf(), merged), (path.to_path_buf(), doc)]).config
        };
    }
    Ok(merged)
}

/// The parser's message without snippets, and with quoted values elided: a misplaced token or
/// key must not end up in an error message.
fn parse_detail(e: &serde_saphyr::Error) -> String {
    let rendered = e.render_with_options(serde_saphyr::render_options! {
        formatter: &serde_saphyr::UserMessageFormatter,
        snippets: serde_saphyr::SnippetMode::Off,
    });
    let mut out = String::with_capacity(rendered.len());
    let mut in_quotes = false;
    for ch in rendered.chars() {
        if ch == '"' || ch == '`' {
            if !in_quotes {
                out.push_str("\"…\"");
            }
            in_quotes = !in_quotes;
        } else if !in_quotes {
            out.push(ch);
        }
    }
    out
}

/// client-go refuses a file that lists a name twice; so do we, rather than silently pick one.
fn check_duplicates(path: &Path, kc: &Kubeconfig) -> Result<(), KubeconfigError> {
    fn first_dup<'a>(names: impl Iterator<Item = &'a String>) -> Option<&'a String> {
        let mut seen = HashSet::new();
        names.into_iter().find(|n| !seen.insert(*n))
    }
    let dup =
        |kind, name: &String| KubeconfigError::DuplicateName { path: path.to_path_buf(), kind, name: name.clone() };
    if let Some(n) = first_dup(kc.clusters.iter().map(|c| &c.name)) {
        return Err(dup("cluster", n));
    }
    if let Some(n) = first_dup(kc.auth_infos.iter().map(|c| &c.name)) {
        return Err(dup("user", n));
    }
    if let Some(n) = first_dup(kc.contexts.iter().map(|c| &c.name)) {
        return Err(dup("context", n));
    }
    Ok(())
}

fn make_paths_absolute(kc: &mut Kubeconfig, dir: &Path) {
    let fix = |p: &mut Option<String>| {
        if let Some(s) = p.as_deref().filter(|s| !s.is_empty() && Path::new(s).is_relative()) {
            *p = Some(dir.join(s).to_string_lossy().into_owned());
        }
    };
    for cluster in kc.clusters.iter_mut().filter_map(|c| c.cluster.as_mut()) {
        fix(&mut cluster.certificate_authority);
    }
    for user in kc.auth_infos.iter_mut().filter_map(|u| u.auth_info.as_mut()) {
        fix(&mut user.client_certificate);
        fix(&mut user.client_key);
        fix(&mut user.token_file);
        // Like client-go, only commands with a path separator are relative paths; a bare name
        // is looked up in PATH.
        if let Some(exec) = user.exec.as_mut()
            && exec.command.as_deref().is_some_and(|c| c.contains(std::path::MAIN_SEPARATOR))
        {
            fix(&mut exec.command);
        }
    }
}
