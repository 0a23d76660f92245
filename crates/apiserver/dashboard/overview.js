// Overview: every member with its mode, version, readiness, nodes, pods and allocatable vs
// allocated resources, and counts of policies, bindings and failed schedules.

import { follow, PATHS, describe } from './api.js';
import { h, fill, table, condition, conditionText, usage, sizeBars } from './dom.js';
import { topology } from './clusters.js';
import { memberName } from './simulated.js';

export function render(main) {
  const body = h('div', {});
  fill(main, h('h1', {}, 'Overview'), body);
  return follow({ clusters: PATHS.clusters, pp: PATHS.pp, cpp: PATHS.cpp, rb: PATHS.rb }, (d, errors) => {
    const clusters = (d.clusters || []).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    const rbs = d.rb || [];
    const failed = rbs.filter((b) => condition(b, 'Scheduled')?.status === 'False');
    const count = (label, n, id) => h('div', { class: 'card', id }, h('div', { class: 'count' }, n ?? '–'), label);
    const ready = clusters.filter((c) => condition(c, 'Ready')?.status === 'True').length;
    fill(body,
      Object.entries(errors).map(([name, err]) => h('p', { class: 'error', role: 'alert' }, `${name}: ${describe(err)}`)),
      h('div', { class: 'cards' },
        count('members Ready', `${ready}/${clusters.length}`, 'count-ready'),
        count('propagation policies', d.pp && d.cpp ? d.pp.length + d.cpp.length : d.pp?.length, 'count-policies'),
        count('resource bindings', d.rb?.length, 'count-bindings'),
        count('failed schedules', d.rb ? failed.length : undefined, 'count-failed')),
      h('h2', {}, 'Members'),
      table('Member clusters', ['Name', 'Mode', 'Version', 'Ready', 'Nodes (ready/total)', 'CPU allocated / allocatable', 'Memory', 'Pods'],
        clusters.map((c) => {
          const s = c.status || {};
          const r = s.resourceSummary || {};
          const nodes = s.nodeSummary ? `${s.nodeSummary.readyNum ?? 0}/${s.nodeSummary.totalNum ?? 0}` : '–';
          return { attrs: { 'data-cluster': c.metadata.name }, cells: [memberName(c.metadata.name), c.spec?.syncMode || '', s.kubernetesVersion || '', conditionText(condition(c, 'Ready')), nodes,
            usage('CPU', r.allocated?.cpu, r.allocatable?.cpu), usage('Memory', r.allocated?.memory, r.allocatable?.memory), usage('Pods', r.allocated?.pods, r.allocatable?.pods)] };
        }), 'No member clusters have joined.'),
      failed.length ? h('h2', {}, 'Failed schedules') : null,
      failed.length ? table('Bindings that could not be scheduled', ['Binding', 'Reason'],
        failed.map((b) => [`${b.metadata.namespace}/${b.metadata.name}`, condition(b, 'Scheduled').message || ''])) : null,
      h('h2', {}, 'Topology'),
      topology(clusters, rbs));
    sizeBars(body);
  });
}
