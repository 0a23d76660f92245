#!/bin/bash
# A simulated member's cost per Deployment: `local up --members 1 --nodes 1`, N Deployments of
# one replica created straight into member1 by kubectl, then waits until the member's CPU stops
# rising; prints the member's CPU seconds, how many Deployments are ready, and the member's
# requests (its /metrics) per Deployment.
#   N=2000 BIN=target/release/karmadactl benches/scripts/member_cpu.sh
set -u
N=${N:-2000}
MEMBERS=1
. "$(dirname "$0")/playground.sh"
k() { "$K" --kubeconfig "$KC" --cache-dir "$W/cache" --context member1 "$@"; }
for i in $(seq 0 $((N - 1))); do
    printf -- '---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%s, namespace: default}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: d%s}}\n  template:\n    metadata: {labels: {app: d%s}}\n    spec: {containers: [{name: c, image: nginx}]}\n' "$i" "$i" "$i"
done >"$W/deployments.yaml"
member=$(cat "$W/pg/members/member1/controlplane.pid")
ticks() { awk '{print $14 + $15}' "/proc/$member/stat"; }
sleep 2
before=$(ticks)
k create -f "$W/deployments.yaml" >/dev/null
# Settled: less than 0.05 s of CPU in 3 s.
last=$(ticks)
while sleep 3; do now=$(ticks); [ $((now - last)) -lt 5 ] && break; last=$now; done
used=$(( $(ticks) - before ))
ready=$(k get deploy --no-headers | awk '$2 == "1/1"' | wc -l)
echo "member CPU: $(echo "scale=2; $used / $(getconf CLK_TCK)" | bc) s for $N Deployments ($(echo "scale=2; $used * 1000 / $(getconf CLK_TCK) / $N" | bc) ms each), $ready ready"
echo "member requests per Deployment:"
k get --raw /metrics | grep '^apiserver_request_total' |
    awk -v n="$N" '$2 >= n / 2 { sub(/^apiserver_request_total/, ""); printf "  %s %.2f\n", $1, $2 / n }'
