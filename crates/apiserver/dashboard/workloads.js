// Workloads: Deployments with the policy that claimed each (its annotations), where the
// ResourceBinding placed its replicas per member, the status aggregated from members, the
// override policies applied to each member's copy (from its Work's annotations) and the latest
// events of the Deployment and its binding. A small form creates a Deployment as the
// logged-in user.

import { call, follow, PATHS, describe } from './api.js';
import { h, fill, table, condition, conditionText } from './dom.js';
import { memberName } from './simulated.js';

export function render(main, ctx) {
  const body = h('div', {});
  fill(main, h('h1', {}, 'Workloads'), createForm(ctx), body);
  return follow({ deployments: PATHS.deployments, rb: PATHS.rb, works: PATHS.works, events: PATHS.events }, (d, errors) => {
    const deployments = (d.deployments || []).sort((a, b) => key(a).localeCompare(key(b)));
    const bindings = new Map((d.rb || []).map((b) => [`${b.metadata.namespace}/${b.spec?.resource?.kind}/${b.spec?.resource?.name}`, b]));
    const worksOf = groupBy(d.works || [], (w) => w.metadata.labels?.[RB_ID]);
    const eventsOf = groupBy(d.events || [], (e) => `${e.involvedObject?.kind}/${e.involvedObject?.namespace}/${e.involvedObject?.name}`);
    fill(body,
      Object.entries(errors).map(([name, err]) => h('p', { class: 'error', role: 'alert' }, `${name}: ${describe(err)}`)),
      table('Deployments and their placement', ['Deployment', 'Replicas', 'Policy', 'Placement (member: replicas)', 'Scheduled', 'Member status', 'Overrides applied', 'Latest events'],
        deployments.map((w) => {
          const b = bindings.get(`${w.metadata.namespace}/Deployment/${w.metadata.name}`);
          const placement = (b?.spec?.clusters || []).map((c) => h('div', { 'data-member': c.name, 'data-replicas': c.replicas ?? '' }, `${memberName(c.name)}: ${c.replicas ?? '–'}`));
          const status = (b?.status?.aggregatedStatus || []).map((s) => h('div', {},
            `${memberName(s.clusterName)}: ${s.applied ? 'applied' : 'not applied'}${s.health ? `, ${s.health}` : ''}`,
            s.status?.readyReplicas !== undefined ? `, ${s.status.readyReplicas} ready` : ''));
          return { attrs: { 'data-workload': key(w) }, cells: [key(w), `${w.status?.readyReplicas ?? 0}/${w.spec?.replicas ?? 1} ready`, policyOf(w), placement.length ? placement : h('span', { class: 'muted' }, 'not placed'),
            b ? conditionText(condition(b, 'Scheduled')) : '', status,
            overrides(worksOf.get(b?.metadata?.labels?.[RB_ID]) || []),
            latestEvents([...(eventsOf.get(`Deployment/${w.metadata.namespace}/${w.metadata.name}`) || []),
              ...(b ? eventsOf.get(`ResourceBinding/${b.metadata.namespace}/${b.metadata.name}`) || [] : [])])] };
        }), 'No Deployments.'));
  });
}

function key(o) { return `${o.metadata.namespace}/${o.metadata.name}`; }

// The label a binding's Works carry with the binding's permanent id.
const RB_ID = 'resourcebinding.karmada.io/permanent-id';
const EXECUTION_SPACE = 'karmada-es-';

function groupBy(items, keyOf) {
  const out = new Map();
  for (const item of items) {
    const k = keyOf(item);
    if (k === undefined) continue;
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(item);
  }
  return out;
}

// Per member, the override policies the engine applied to its copy, as it records them on
// the Work (`[{"policyName": …, "overriders": …}]`).
function overrides(works) {
  const lines = [];
  for (const w of works) {
    const member = (w.metadata.namespace || '').startsWith(EXECUTION_SPACE) ? w.metadata.namespace.slice(EXECUTION_SPACE.length) : w.metadata.namespace;
    const a = w.metadata.annotations || {};
    const names = [['OverridePolicy', a['policy.karmada.io/applied-overrides']], ['ClusterOverridePolicy', a['policy.karmada.io/applied-cluster-overrides']]]
      .flatMap(([kind, raw]) => {
        try { return (JSON.parse(raw || '[]') || []).map((p) => `${kind} ${p.policyName}`); } catch { return []; }
      });
    if (names.length) lines.push(h('div', { 'data-overrides': member }, `${memberName(member)}: ${names.join(', ')}`));
  }
  return lines.length ? lines : h('span', { class: 'muted' }, 'none');
}

// The three newest events, newest first.
function latestEvents(events) {
  const time = (e) => e.lastTimestamp || e.eventTime || e.metadata?.creationTimestamp || '';
  const newest = events.sort((a, b) => time(b).localeCompare(time(a))).slice(0, 3);
  if (!newest.length) return h('span', { class: 'muted' }, 'none');
  return newest.map((e) => h('div', { class: e.type === 'Warning' ? 'warn' : '' }, `${e.reason || ''}: ${e.message || ''}`));
}

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
