//! What `logs` asks the server for (kubectl's PodLogOptions), read from the flags and checked
//! as kubectl checks them, with kubectl's messages.

use std::time::Duration;

use karmadactl_apimachinery::duration::SignedGoDuration;

use super::LogsArgs;
use crate::error::Verbatim;

/// Lines per pod when a selector picks the pods and `--tail` was not given.
const SELECTOR_TAIL: i64 = 10;

/// The query of every log request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// The container named by `-c` or the second argument; empty picks one per pod.
    pub container: String,
    follow: bool,
    previous: bool,
    timestamps: bool,
    insecure_backend: bool,
    since_seconds: Option<i64>,
    /// Normalised to RFC3339 as client-go sends it.
    since_time: Option<String>,
    tail_lines: Option<i64>,
    limit_bytes: Option<i64>,
    /// Whether both `-c` and an inline container were given.
    container_twice: bool,
    /// `--since` as given, for its sign check.
    since_negative: bool,
}

impl Request {
    /// kubectl's ToLogOptions (parse errors surface here, before anything is read).
    pub fn from_args(args: &LogsArgs, by_selector: bool) -> anyhow::Result<Self> {
        let flag_error = |value: &str, flag: &str, why: String| -> anyhow::Error {
            Verbatim(format!(
                    "error: invalid argument \"{value}\" for \"--{flag}\" flag: {why}\nSee 'karmadactl logs --help' for usage."
                ))
                .into()
        };
        let since = match args.since.as_deref() {
            None => None,
            Some(s) => Some(s.parse::<SignedGoDuration>().map_err(|e| flag_error(s, "since", e.to_string()))?),
        };
        let since_time = match args.since_time.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => Some(rfc3339(s).map_err(anyhow::Error::msg)?),
        };
        let inline = args.args.get(1).cloned();
        let container = inline.clone().or_else(|| args.container.clone()).unwrap_or_default();
        let since_seconds = since.filter(|d| d.as_nanos() != 0).map(|d| round_seconds(i128::from(d.as_nanos())));
        let tail_lines = match args.tail {
            Some(-1) | None if by_selector && args.tail.is_none() => Some(SELECTOR_TAIL),
            Some(-1) | None => None,
            Some(n) => Some(n),
        };
        Ok(Request {
            container,
            follow: args.follow,
            previous: args.previous,
            timestamps: args.timestamps,
            insecure_backend: args.insecure_skip_tls_verify_backend,
            since_seconds,
            since_time,
            tail_lines,
            limit_bytes: (args.limit_bytes != 0).then_some(args.limit_bytes),
            container_twice: inline.is_some() && args.container.is_some(),
            since_negative: since.is_some_and(|d| d.as_nanos() < 0),
        })
    }

    /// kubectl's Validate.
    pub fn validate(&self, args: &LogsArgs) -> Result<(), String> {
        if args.since_time.as_deref().is_some_and(|s| !s.is_empty()) && self.since_seconds.is_some() {
            return Err("at most one of `sinceTime` or `sinceSeconds` may be specified".into());
        }
        if args.all_containers && !self.container.is_empty() {
            return Err(format!(
                "--all-containers=true should not be specified with container name {}",
                self.container
            ));
        }
        if self.container_twice {
            return Err("only one of -c or an inline [CONTAINER] arg is allowed".into());
        }
        if args.limit_bytes < 0 {
            return Err("--limit-bytes must be greater than 0".into());
        }
        if self.since_negative {
            return Err("--since must be greater than 0".into());
        }
        if self.tail_lines.is_some_and(|t| t < -1) {
            return Err("--tail must be greater than or equal to -1".into());
        }
        Ok(())
    }

    /// The query for one container's log.
    pub fn query(&self, container: &str) -> String {
        let mut q = form_urlencoded::Serializer::new(String::new());
        q.append_pair("container", container);
        let flags = [("follow", self.follow), ("previous", self.previous), ("timestamps", self.timestamps)];
        for (name, on) in flags {
            if on {
                q.append_pair(name, "true");
            }
        }
        if let Some(s) = self.since_seconds {
            q.append_pair("sinceSeconds", &s.to_string());
        }
        if let Some(t) = &self.since_time {
            q.append_pair("sinceTime", t);
        }
        if let Some(t) = self.tail_lines {
            q.append_pair("tailLines", &t.to_string());
        }
        if let Some(b) = self.limit_bytes {
            q.append_pair("limitBytes", &b.to_string());
        }
        if self.insecure_backend {
            q.append_pair("insecureSkipTLSVerifyBackend", "true");
        }
        q.finish()
    }
}

/// Go's `Duration.Round(time.Second).Seconds()`: halves round away from zero.
fn round_seconds(nanos: i128) -> i64 {
    let second = 1_000_000_000i128;
    let rounded = if nanos >= 0 { (nanos + second / 2) / second } else { (nanos - second / 2) / second };
    i64::try_from(rounded).unwrap_or(i64::MAX)
}

/// kubectl's ParseRFC3339 (RFC3339 with or without fractions), sent as metav1.Time marshals
/// it: RFC3339 in UTC, whole seconds.
fn rfc3339(s: &str) -> Result<String, String> {
    let t: jiff::Timestamp = s
        .parse()
        .map_err(|_| format!("parsing time {s:?} as \"2006-01-02T15:04:05Z07:00\": cannot parse {s:?} as \"2006\""))?;
    Ok(t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// `--pod-running-timeout` must be above zero, as kubectl's GetPodRunningTimeoutFlag says.
pub fn check_timeout(timeout: Duration) -> Result<Duration, String> {
    if timeout.is_zero() {
        return Err("--pod-running-timeout must be higher than zero".into());
    }
    Ok(timeout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_round_to_seconds_as_go_does() {
        assert_eq!(round_seconds(1_500_000_000), 2);
        assert_eq!(round_seconds(1_400_000_000), 1);
        assert_eq!(round_seconds(400_000_000), 0);
        assert_eq!(round_seconds(3_600_000_000_000), 3600);
    }

    #[test]
    fn times_are_sent_in_utc_whole_seconds() {
        assert_eq!(rfc3339("2024-08-30T08:00:00.5+02:00").unwrap(), "2024-08-30T06:00:00Z");
        assert!(rfc3339("yesterday").unwrap_err().starts_with("parsing time \"yesterday\""));
    }

    #[test]
    fn the_query_names_only_what_was_asked() {
        let r = Request { tail_lines: Some(3), timestamps: true, ..Default::default() };
        assert_eq!(r.query("nginx"), "container=nginx&timestamps=true&tailLines=3");
    }
}
