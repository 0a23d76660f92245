// Whether a member is simulated (a `karmadactl local` member: its nodes carry karmadactl's
// simulated label), so that every view naming a member says so. Each member is asked once,
// through the plane's cluster proxy as the logged-in user; a member that cannot be asked (no
// right to proxy, a Pull member, unreachable) is not called simulated.

import { call, factsChanged } from './api.js';

const LABEL = 'karmadactl.karmada.io/simulated';
const known = new Map();

function probe(name) {
  if (known.has(name)) return;
  known.set(name, false);
  const selector = encodeURIComponent(`${LABEL}=true`);
  call('GET', `/apis/cluster.karmada.io/v1alpha1/clusters/${encodeURIComponent(name)}/proxy/api/v1/nodes?limit=1&labelSelector=${selector}`)
    .then((list) => {
      if ((list?.items || []).length > 0) {
        known.set(name, true);
        factsChanged.dispatchEvent(new Event('change'));
      }
    })
    .catch(() => {});
}

// The member's name as views show it: `member1 (simulated)` for a simulated member.
export function memberName(name) {
  probe(name);
  return known.get(name) ? `${name} (simulated)` : name;
}
