//! The record a member's first start writes: it marks the directory as a member's (stop
//! deletes nothing without it) and fixes the address, so the kubeconfig a Karmada plane was
//! given stays valid across restarts.

use std::net::SocketAddr;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::MemberError;

pub const RECORD_FILE: &str = "simulated-member.json";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberRecord {
    pub name: String,
    /// Always a concrete port.
    pub listen: SocketAddr,
    pub created_by: String,
}

impl MemberRecord {
    pub fn url(&self) -> String {
        crate::kubeconfig::https_server_url(&self.listen.ip().to_string(), self.listen.port())
    }

    pub fn read(path: &Path) -> Result<Option<Self>, MemberError> {
        let io = |source| MemberError::Io { what: "cannot read", path: path.to_path_buf(), source };
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|e| {
                io(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not a member record: {e}")))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io(e)),
        }
    }

    pub fn write(&self, path: &Path) -> Result<(), MemberError> {
        let mut text = serde_json::to_string_pretty(self).expect("a record always serialises");
        text.push('\n');
        crate::private_files::write(path, text.as_bytes()).map_err(|source| MemberError::Io {
            what: "cannot write",
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_round_trips_and_names_its_url() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(RECORD_FILE);
        assert_eq!(MemberRecord::read(&path).unwrap(), None);
        let rec =
            MemberRecord { name: "m1".into(), listen: "127.0.0.1:40000".parse().unwrap(), created_by: "x".into() };
        rec.write(&path).unwrap();
        assert_eq!(MemberRecord::read(&path).unwrap(), Some(rec.clone()));
        assert_eq!(rec.url(), "https://127.0.0.1:40000");
        std::fs::write(&path, "{").unwrap();
        assert!(MemberRecord::read(&path).is_err());
    }
}
