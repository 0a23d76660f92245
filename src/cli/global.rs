//! Flags every command accepts, before or after the subcommand name.
//!
//! Upstream inherits klog's logging flags from Go's global flag set, so scripts pass them to any
//! command (`karmadactl --v=4 join …`). They are accepted here for the same reason and hidden
//! from per-command help; `karmadactl options` lists them. Only `-v/--v` has an effect: it raises
//! the verbosity of diagnostics on stderr. The others exist so that existing scripts keep working.

use clap::{ArgAction, Args};

#[derive(Debug, Clone, Default, Args)]
pub struct GlobalFlags {
    /// Number for the log level verbosity.
    #[arg(short = 'v', long = "v", global = true, hide = true, default_value_t = 0, value_name = "LEVEL")]
    pub verbosity: i32,

    /// If true, adds the file directory to the header of the log messages.
    #[arg(long, global = true, hide = true, action = ArgAction::Set, num_args = 0..=1,
          require_equals = true, default_value_t = false, default_missing_value = "true")]
    pub add_dir_header: bool,

    /// Log to standard error as well as files (no effect when -logtostderr=true).
    #[arg(long, global = true, hide = true, action = ArgAction::Set, num_args = 0..=1,
          require_equals = true, default_value_t = false, default_missing_value = "true")]
    pub alsologtostderr: bool,

    /// Logs at or above this threshold go to stderr when writing to files and stderr.
    #[arg(long, global = true, hide = true, value_name = "SEVERITY")]
    pub alsologtostderrthreshold: Option<String>,

    /// If true, stderrthreshold is honoured even when logtostderr=true.
    #[arg(long, global = true, hide = true, action = ArgAction::Set, num_args = 0..=1,
          require_equals = true, default_value_t = false, default_missing_value = "true")]
    pub legacy_stderr_threshold_behavior: bool,

    /// When logging hits line file:N, emit a stack trace.
    #[arg(long, global = true, hide = true, value_name = "FILE:N")]
    pub log_backtrace_at: Option<String>,

    /// If non-empty, write log files in this directory (no effect when -logtostderr=true).
    #[arg(long, global = true, hide = true, value_name = "DIR")]
    pub log_dir: Option<String>,

    /// If non-empty, use this log file (no effect when -logtostderr=true).
    #[arg(long, global = true, hide = true, value_name = "FILE")]
    pub log_file: Option<String>,

    /// Defines the maximum size a log file can grow to, in megabytes; 0 means no limit.
    #[arg(long, global = true, hide = true, default_value_t = 1800, value_name = "MB")]
    pub log_file_max_size: u64,

    /// Log to standard error instead of files.
    #[arg(long, global = true, hide = true, action = ArgAction::Set, num_args = 0..=1,
          require_equals = true, default_value_t = true, default_missing_value = "true")]
    pub logtostderr: bool,

    /// If true, only write logs to their native severity level.
    #[arg(long, global = true, hide = true, action = ArgAction::Set, num_args = 0..=1,
          require_equals = true, default_value_t = false, default_missing_value = "true")]
    pub one_output: bool,

    /// If true, avoid header prefixes in the log messages.
    #[arg(long, global = true, hide = true, action = ArgAction::Set, num_args = 0..=1,
          require_equals = true, default_value_t = false, default_missing_value = "true")]
    pub skip_headers: bool,

    /// If true, avoid headers when opening log files.
    #[arg(long, global = true, hide = true, action = ArgAction::Set, num_args = 0..=1,
          require_equals = true, default_value_t = false, default_missing_value = "true")]
    pub skip_log_headers: bool,

    /// Logs at or above this threshold go to stderr.
    #[arg(long, global = true, hide = true, value_name = "SEVERITY")]
    pub stderrthreshold: Option<String>,

    /// Comma-separated list of pattern=N settings for file-filtered logging.
    #[arg(long, global = true, hide = true, value_name = "PATTERN=N")]
    pub vmodule: Option<String>,
}
