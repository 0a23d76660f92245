#!/usr/bin/env bash
# Builds karmadactl from this checkout and installs it under a prefix (default ~/.local):
#   bin/karmadactl, bin/kubectl-karmada (the kubectl plugin name, a link to karmadactl),
#   and bash, zsh and fish completions. Running it again replaces what it installed.
# It builds the default features only: the etcd datastore (cargo feature "etcd") needs protoc
# at build time, so a fresh machine needs nothing beyond the Rust toolchain (see README.md).
# INSTALL_BINARY=PATH installs that already-built binary instead of building one (packagers; the
# README test, which runs the README's set-up command without a release build).
set -euo pipefail

prefix="${PREFIX:-$HOME/.local}"
action=install
profile=release

usage() {
  cat <<USAGE
Usage: ./install.sh [--prefix DIR] [--dist] [--uninstall]

  --prefix DIR   install under DIR (default: \$PREFIX or ~/.local)
  --dist         build the dist profile: whole-program optimised, about 15-30 % less CPU per
                 API request than the default release build, but the build takes about
                 20 minutes on 2 cores instead of about 13 (docs/development.md)
  --uninstall    remove what install.sh installed under the prefix

Environment:
  INSTALL_BINARY  install this karmadactl binary instead of building one
USAGE
}

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) [ $# -ge 2 ] || { echo "error: --prefix needs a directory" >&2; exit 1; }; prefix="$2"; shift 2 ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --dist) profile=dist; shift ;;
    --uninstall) action=uninstall; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "error: unknown option: $1" >&2; usage >&2; exit 1 ;;
  esac
done

bin_dir="$prefix/bin"
bash_dir="$prefix/share/bash-completion/completions"
zsh_dir="$prefix/share/zsh/site-functions"
fish_dir="$prefix/share/fish/vendor_completions.d"
installed=(
  "$bin_dir/karmadactl"
  "$bin_dir/kubectl-karmada"
  "$bash_dir/karmadactl"
  "$zsh_dir/_karmadactl"
  "$fish_dir/karmadactl.fish"
)

if [ "$action" = uninstall ]; then
  for f in "${installed[@]}"; do
    if [ -e "$f" ] || [ -L "$f" ]; then rm -f "$f"; echo "removed $f"; fi
  done
  echo "karmadactl is uninstalled from $prefix"
  exit 0
fi

cd "$(dirname "$0")"
if [ -n "${INSTALL_BINARY:-}" ]; then
  [ -x "$INSTALL_BINARY" ] || { echo "error: INSTALL_BINARY=$INSTALL_BINARY is not an executable file" >&2; exit 1; }
  built="$INSTALL_BINARY"
else
  if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo was not found on PATH." >&2
    echo "hint: install the Rust toolchain (rustup), open a new shell so cargo is on PATH, and run ./install.sh again." >&2
    exit 1
  fi
  # `karmadactl version` reports whether the tree had uncommitted changes. The build script does
  # not read git's index (that would rebuild the library on every `git add`), so it is told here.
  # A caller's `clean` or `dirty` is kept; any other value (cargo hands its build scripts'
  # `unknown` to the processes `cargo test` and `cargo run` start) is worked out again.
  case "${KARMADACTL_GIT_TREE_STATE:-}" in
    clean|dirty) ;;
    *)
      KARMADACTL_GIT_TREE_STATE=unknown
      if status="$(git status --porcelain --untracked-files=no 2>/dev/null)"; then
        if [ -z "$status" ]; then KARMADACTL_GIT_TREE_STATE=clean; else KARMADACTL_GIT_TREE_STATE=dirty; fi
      fi
      ;;
  esac
  export KARMADACTL_GIT_TREE_STATE
  echo "building karmadactl ($profile)..." >&2
  cargo build --profile "$profile" --locked
  # Cargo puts the binary under CARGO_TARGET_DIR when that is set (as in many CI setups).
  built="${CARGO_TARGET_DIR:-target}/$profile/karmadactl"
fi

mkdir -p "$bin_dir" "$bash_dir" "$zsh_dir" "$fish_dir"
# Copy to a temp name and rename, so a running karmadactl is never overwritten in place.
install -m 0755 "$built" "$bin_dir/.karmadactl.new"
mv -f "$bin_dir/.karmadactl.new" "$bin_dir/karmadactl"
ln -sfn karmadactl "$bin_dir/kubectl-karmada"
install -m 0644 completions/karmadactl.bash "$bash_dir/karmadactl"
install -m 0644 completions/_karmadactl "$zsh_dir/_karmadactl"
install -m 0644 completions/karmadactl.fish "$fish_dir/karmadactl.fish"

echo "installed karmadactl and kubectl-karmada into $bin_dir"
case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) echo "hint: $bin_dir is not on your PATH; add it, e.g. export PATH=\"$bin_dir:\$PATH\"" >&2 ;;
esac
