// Bindings and Works: each ResourceBinding's scheduling result (the members and replicas, or
// the "0/3 clusters are available" reason) and the Works it produced per member.

import { follow, PATHS, describe } from './api.js';
import { h, fill, table, condition, conditionText } from './dom.js';
import { memberName } from './simulated.js';

export function render(main) {
  const body = h('div', {});
  fill(main, h('h1', {}, 'Bindings and Works'), body);
  return follow({ rb: PATHS.rb, crb: PATHS.crb, works: PATHS.works }, (d, errors) => {
    const bindings = [...(d.rb || []), ...(d.crb || [])].sort((a, b) => name(a).localeCompare(name(b)));
    const works = (d.works || []).sort((a, b) => name(a).localeCompare(name(b)));
    fill(body,
      Object.entries(errors).map(([n, err]) => h('p', { class: 'error', role: 'alert' }, `${n}: ${describe(err)}`)),
      h('h2', {}, 'Resource bindings'),
      table('Scheduling results', ['Binding', 'Resource', 'Members (replicas)', 'Scheduled', 'Reason', 'Fully applied'],
        bindings.map((b) => {
          const s = condition(b, 'Scheduled');
          return { attrs: { 'data-binding': name(b) }, cells: [name(b), `${b.spec?.resource?.kind} ${b.spec?.resource?.name}`,
            (b.spec?.clusters || []).map((c) => `${memberName(c.name)} (${c.replicas ?? '–'})`).join(', '),
            conditionText(s), s?.status === 'False' ? s.message : '', conditionText(condition(b, 'FullyApplied'))] };
        }), 'No bindings.'),
      h('h2', {}, 'Works'),
      table('Works per member (namespace karmada-es-<member>)', ['Work', 'Applied', 'Message'],
        works.map((w) => [name(w), conditionText(condition(w, 'Applied')), condition(w, 'Applied')?.message || '']), 'No Works.'));
  });
}

function name(o) { return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name; }
