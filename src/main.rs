//! Thin entry point: the library parses, runs and classifies; this maps the result to an exit code.

fn main() {
    std::process::exit(karmadactl::run(std::env::args_os().collect()));
}
