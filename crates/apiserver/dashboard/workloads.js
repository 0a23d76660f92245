// Workloads: Deployments with the policy that claimed each (its annotations), where the
// ResourceBinding placed its replicas per member, and the status aggregated from members.
// A small form creates a Deployment as the logged-in user.

import { call, follow, PATHS, describe } from './api.js';
import { h, fill, table, condition, conditionText } from './dom.js';
import { memberName } from './simulated.js';

export function render(main, ctx) {
  const body = h('div', {});
  fill(main, h('h1', {}, 'Workloads'), createForm(ctx), body);
  return follow({ deployments: PATHS.deployments, rb: PATHS.rb }, (d, errors) => {
    const deployments = (d.deployments || []).sort((a, b) => key(a).localeCompare(key(b)));
    const bindings = new Map((d.rb || []).map((b) => [`${b.metadata.namespace}/${b.spec?.resource?.kind}/${b.spec?.resource?.name}`, b]));
    fill(body,
      Object.entries(errors).map(([name, err]) => h('p', { class: 'error', role: 'alert' }, `${name}: ${describe(err)}`)),
      table('Deployments and their placement', ['Deployment', 'Replicas', 'Policy', 'Placement (member: replicas)', 'Scheduled', 'Member status'],
        deployments.map((w) => {
          const b = bindings.get(`${w.metadata.namespace}/Deployment/${w.metadata.name}`);
          const placement = (b?.spec?.clusters || []).map((c) => h('div', { 'data-member': c.name, 'data-replicas': c.replicas ?? '' }, `${memberName(c.name)}: ${c.replicas ?? '–'}`));
          const status = (b?.status?.aggregatedStatus || []).map((s) => h('div', {},
            `${s.clusterName}: ${s.applied ? 'applied' : 'not applied'}${s.health ? `, ${s.health}` : ''}`,
            s.status?.readyReplicas !== undefined ? `, ${s.status.readyReplicas} ready` : ''));
          return { attrs: { 'data-workload': key(w) }, cells: [key(w), `${w.status?.readyReplicas ?? 0}/${w.spec?.replicas ?? 1} ready`, policyOf(w), placement.length ? placement : h('span', { class: 'muted' }, 'not placed'),
            b ? conditionText(condition(b, 'Scheduled')) : '', status] };
        }), 'No Deployments.'));
  });
}

function key(o) { return `${o.metadata.namespace}/${o.metadata.name}`; }

function policyOf(w) {
  const a = w.metadata.annotations || {};
  if (a['propagationpolicy.karmada.io/name']) return `PropagationPolicy ${a['propagationpolicy.karmada.io/namespace'] || w.metadata.namespace}/${a['propagationpolicy.karmada.io/name']}`;
  if (a['clusterpropagationpolicy.karmada.io/name']) return `ClusterPropagationPolicy ${a['clusterpropagationpolicy.karmada.io/name']}`;
  return h('span', { class: 'muted' }, 'none');
}

function createForm(ctx) {
  const field = (id, label, value, type) => {
    const input = h('input', { id, name: id, value, type: type || 'text', required: true });
    return [h('label', { for: id }, label, input), input];
  };
  const [nsL, ns] = field('wl-namespace', 'Namespace', 'default');
  const [nameL, name] = field('wl-name', 'Name', '');
  const [imageL, image] = field('wl-image', 'Image', 'nginx');
  const [replicasL, replicas] = field('wl-replicas', 'Replicas', '3', 'number');
  replicas.min = '0';
  const result = h('p', { role: 'status' });
  return h('section', { 'aria-labelledby': 'create-deployment' },
    h('h2', { id: 'create-deployment' }, 'Create a Deployment'),
    h('form', {
      class: 'inline',
      onsubmit: async (e) => {
        e.preventDefault();
        const labels = { app: name.value };
        const obj = {
          apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: name.value, namespace: ns.value, labels },
          spec: { replicas: Number(replicas.value), selector: { matchLabels: labels },
            template: { metadata: { labels }, spec: { containers: [{ name: name.value, image: image.value }] } } },
        };
        try {
          await call('POST', `/apis/apps/v1/namespaces/${encodeURIComponent(ns.value)}/deployments`, JSON.stringify(obj));
          fill(result, `deployment.apps/${name.value} created`);
          result.className = '';
        } catch (err) {
          fill(result, `Create refused: ${describe(err)}`);
          result.className = 'error';
          ctx.notice(`Create refused: ${describe(err)}`);
        }
      },
    }, nsL, nameL, imageL, replicasL, h('button', { type: 'submit', class: 'primary', id: 'wl-create' }, 'Create')),
    result);
}
