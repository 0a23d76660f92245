# Sourced by the benchmark scripts: starts a `local up --members $MEMBERS --nodes 1` playground
# of $BIN in a temporary directory $W (HOME too), removed with the playground on exit; $K is
# kubectl 1.33 (or $KUBECTL) and $KC the playground's kubeconfig.
BIN=${BIN:-target/debug/karmadactl}
K=${KUBECTL:-$(dirname "$(readlink -f "$(command -v kubectl)")")/kubectl.1.33}
W=$(mktemp -d); mkdir -p "$W/home"; export HOME=$W/home
"$BIN" local up --members "$MEMBERS" --nodes 1 --data-dir "$W/pg" -o json >"$W/up.json" 2>"$W/up.err" || { cat "$W/up.err"; exit 1; }
trap '"$BIN" local down --force --data-dir "$W/pg" >/dev/null 2>&1; rm -rf "$W"' EXIT
KC=$W/pg/kubeconfig
