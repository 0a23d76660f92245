#!/bin/bash
# Issue 30's burst: `local up --members 2 --nodes 1`, a PropagationPolicy duplicating every
# Deployment to both members, N Deployments created by 16 kubectl clients at once; prints how
# many member copies exist every few seconds until all 2N are there (or WAIT polls pass), beside
# the time the plane took to answer the creates.
#   N=1000 BIN=target/release/karmadactl benches/scripts/burst.sh
set -u
N=${N:-1000}
WAIT=${WAIT:-60}
MEMBERS=2
. "$(dirname "$0")/playground.sh"
k() { "$K" --kubeconfig "$KC" --cache-dir "$W/cache-$1" --context "$2" "${@:3}"; }
k p karmada-apiserver apply -f - >/dev/null <<YAML
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all-deploys, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
YAML
for c in $(seq 0 15); do
    for i in $(seq "$c" 16 $((N - 1))); do
        printf -- '---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%s, namespace: default}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: d%s}}\n  template:\n    metadata: {labels: {app: d%s}}\n    spec: {containers: [{name: c, image: nginx}]}\n' "$i" "$i" "$i"
    done >"$W/batch-$c.yaml"
done
start=$(date +%s.%N)
for c in $(seq 0 15); do k "c$c" karmada-apiserver create -f "$W/batch-$c.yaml" >"$W/create-$c.log" 2>&1 & done
wait
echo "$N creates answered in $(echo "$(date +%s.%N) - $start" | bc) s ($(cat "$W"/create-*.log | grep -c ' created') created)"
for _ in $(seq 1 "$WAIT"); do
    m1=$(k m1 member1 get deploy -n default --no-headers 2>/dev/null | wc -l)
    m2=$(k m2 member2 get deploy -n default --no-headers 2>/dev/null | wc -l)
    echo "$(echo "$(date +%s.%N) - $start" | bc | cut -d. -f1) s: member1 $m1, member2 $m2 of $N"
    [ $((m1 + m2)) -ge $((2 * N)) ] && break
    sleep 3
done
