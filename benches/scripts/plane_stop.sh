#!/bin/bash
# Plane stop time (SIGTERM -> exit) with tens of thousands of objects, beside the time to fsync
# the store's files. Creates N Deployments (8 kubectl clients) under a PropagationPolicy for two
# members that do not exist, so the engine caches templates and bindings; lets the plane work for
# SETTLE seconds; then, for each binary in BINS (default: this checkout's debug build), starts it
# on the same data directory, waits SETTLE seconds and times its stop.
#   N=30000 SETTLE=60 BINS="old/karmadactl target/debug/karmadactl" benches/scripts/plane_stop.sh
set -u
N=${N:-30000}
SETTLE=${SETTLE:-60}
BINS=${BINS:-target/debug/karmadactl}
K=${KUBECTL:-$(dirname "$(readlink -f "$(command -v kubectl)")")/kubectl.1.33}
W=$(mktemp -d); mkdir -p "$W/home"; export HOME=$W/home
KC=$W/plane/admin.kubeconfig
k() { "$K" --kubeconfig "$KC" --cache-dir "$W/cache-$1" "${@:2}"; }

serve() {
    "$1" controlplane serve --data-dir "$W/plane" --listen 127.0.0.1:0 >"$W/url" 2>>"$W/serve.log" &
    PID=$!
    for _ in $(seq 1 300); do k 0 get --raw /readyz >/dev/null 2>&1 && return; sleep 0.2; done
    echo "the plane did not come up; see $W/serve.log" >&2; exit 1
}

stop_timed() {
    echo "$1: RSS before the stop $(awk '/VmRSS/ {print $2, $3}' /proc/$PID/status)"
    local t0; t0=$(date +%s.%N)
    kill -TERM "$PID"; wait "$PID"; local rc=$?
    echo "$1: stop (SIGTERM -> exit) $(echo "$(date +%s.%N) - $t0" | bc) s, exit code $rc"
    python3 - "$W/plane" <<'PY'
import glob, os, sys, time
files = [f for f in glob.glob(sys.argv[1] + "/state.db*") if not f.endswith(".lock")]
t = time.time()
for f in files:
    fd = os.open(f, os.O_RDONLY); os.fsync(fd); os.close(fd)
size = sum(os.path.getsize(f) for f in files) / 2**20
print(f"   limit: fsync of the store's {len(files)} files ({size:.0f} MiB) {time.time() - t:.3f} s")
PY
}

first=${BINS%% *}
serve "$first"
k 0 apply -f - >/dev/null <<YAML
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
YAML
t0=$(date +%s.%N)
for c in $(seq 0 7); do
    python3 - "$c" "$N" >"$W/batch-$c.json" <<'PY'
import json, sys
c, n = map(int, sys.argv[1:])
def dep(i):
    meta = {"labels": {"app": f"d-{i}"}}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": f"d-{i}", "namespace": "default"},
            "spec": {"replicas": 1, "selector": {"matchLabels": meta["labels"]},
                     "template": {"metadata": meta, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": [dep(i) for i in range(c, n, 8)]}))
PY
    k "$((c + 1))" create -f "$W/batch-$c.json" >/dev/null &
done
for c in $(jobs -p); do [ "$c" != "$PID" ] && wait "$c"; done
echo "$N Deployments created in $(echo "$(date +%s.%N) - $t0" | bc) s"
sleep "$SETTLE"
stop_timed "$first (after the creates)"
for bin in $BINS; do
    serve "$bin"
    sleep "$SETTLE"
    stop_timed "$bin"
done
rm -rf "$W"
