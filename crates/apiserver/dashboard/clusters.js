// Clusters: each member's details, taints and conditions, with cordon/uncordon making the
// same change `karmadactl cordon` makes: a JSON patch that first tests the resourceVersion
// read, then adds or removes only the cordon taint. Taints can be added and removed the same
// way (`karmadactl taint`'s change). RBAC decides; a refusal is shown.

import { call, follow, PATHS, describe } from './api.js';
import { h, fill, table, condition, conditionText } from './dom.js';
import { memberName } from './simulated.js';

const CORDON_KEY = 'cluster.karmada.io/unschedulable';
const CORDON_EFFECT = 'NoSchedule';

export function render(main, ctx) {
  const body = h('div', {});
  // The outcome of the last cordon/uncordon per cluster, kept across redraws: the card is
  // rebuilt whenever the Cluster's status changes, which would otherwise wipe the message.
  ctx = { ...ctx, results: new Map() };
  fill(main, h('h1', {}, 'Clusters'), body);
  return follow({ clusters: PATHS.clusters }, (d, errors) => {
    if (errors.clusters) return fill(body, h('p', { class: 'error', role: 'alert' }, describe(errors.clusters)));
    const clusters = (d.clusters || []).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    fill(body, clusters.length ? clusters.map((c) => card(c, ctx)) : h('p', {}, 'No member clusters have joined.'));
  });
}

const isCordon = (t) => t.key === CORDON_KEY && t.effect === CORDON_EFFECT;

function cordoned(c) {
  return (c.spec?.taints || []).some(isCordon);
}

function card(c, ctx) {
  const s = c.status || {};
  const name = c.metadata.name;
  const isCordoned = cordoned(c);
  const last = ctx.results.get(name);
  const result = h('p', { role: 'status', class: last?.error ? 'result error' : 'result' }, last?.text || '');
  const show = (text, error) => {
    ctx.results.set(name, { text, error });
    fill(result, text);
    result.className = error ? 'result error' : 'result';
  };
  // Runs a change of the Cluster, showing its outcome under the card (and a refusal as a
  // notice too).
  const act = async (done, verb, change) => {
    try {
      await change();
      show(`${name} cluster: ${done}`, false);
    } catch (err) {
      const msg = `${verb} refused: ${describe(err)}`;
      show(msg, true);
      ctx.notice(msg);
    }
  };
  const button = h('button', {
    type: 'button', class: isCordoned ? '' : 'danger', 'data-action': isCordoned ? 'uncordon' : 'cordon',
    'aria-label': `${isCordoned ? 'Uncordon' : 'Cordon'} cluster ${name}`,
    onclick: async () => {
      button.disabled = true;
      try {
        await setCordon(name, !isCordoned);
        show(`${name} cluster ${isCordoned ? 'uncordoned' : 'cordoned'}`, false);
      } catch (err) {
        const msg = `${isCordoned ? 'Uncordon' : 'Cordon'} refused: ${describe(err)}`;
        show(msg, true);
        ctx.notice(msg);
        button.disabled = false;
      }
    },
  }, isCordoned ? 'Uncordon' : 'Cordon');
  return h('section', { class: 'card', 'aria-labelledby': `cluster-${name}`, 'data-cluster': name },
    h('h2', { id: `cluster-${name}` }, memberName(name), ' ', conditionText(condition(c, 'Ready')), isCordoned ? h('span', { class: 'warn' }, ' (cordoned)') : null),
    h('dl', {},
      [['API endpoint', c.spec?.apiEndpoint], ['Sync mode', c.spec?.syncMode], ['Kubernetes version', s.kubernetesVersion],
        ['Provider', c.spec?.provider], ['Region', c.spec?.region], ['Zones', (c.spec?.zones || []).join(', ')],
        ['Nodes', s.nodeSummary ? `${s.nodeSummary.readyNum ?? 0} ready of ${s.nodeSummary.totalNum ?? 0}` : '']]
        .filter(([, v]) => v).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    table('Taints', ['Key', 'Value', 'Effect', ''], (c.spec?.taints || []).map((t) => [t.key, t.value || '', t.effect,
      h('button', { type: 'button', class: 'danger', 'data-action': 'remove-taint', 'aria-label': `Remove taint ${t.key}:${t.effect} from cluster ${name}`,
        onclick: () => act(`taint ${t.key}:${t.effect} removed`, 'Remove taint',
          () => editTaints(name, (taints) => taints.filter((x) => !(x.key === t.key && x.effect === t.effect)))) }, 'Remove')]), 'No taints.'),
    taintForm(name, act),
    table('Conditions', ['Type', 'Status', 'Reason', 'Message', 'Since'],
      (s.conditions || []).map((x) => [x.type, x.status, x.reason || '', x.message || '', x.lastTransitionTime || ''])),
    button, result);
}

// Cordons or uncordons a Cluster as `karmadactl cordon` does: the cordon taint added or removed
// through the same guarded edit as any other taint.
export function setCordon(name, on) {
  return editTaints(name, (taints) => {
    if (!on) return taints.filter((t) => !isCordon(t));
    return taints.some(isCordon) ? taints : [...taints, { key: CORDON_KEY, effect: CORDON_EFFECT }];
  });
}

// Sets a Cluster's taints to `change(taints)`, guarded by the resourceVersion read, as
// `karmadactl taint` does; a concurrent change makes it read and decide again.
export async function editTaints(name, change) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const c = await call('GET', `${PATHS.clusters}/${encodeURIComponent(name)}`);
    const taints = c.spec?.taints || [];
    const next = change(taints);
    if (JSON.stringify(next) === JSON.stringify(taints)) return;
    const ops = [{ op: 'test', path: '/metadata/resourceVersion', value: c.metadata.resourceVersion }];
    if (next.length) ops.push({ op: 'add', path: '/spec/taints', value: next });
    else ops.push({ op: 'remove', path: '/spec/taints' });
    try {
      await call('PATCH', `${PATHS.clusters}/${encodeURIComponent(name)}`, JSON.stringify(ops), 'application/json-patch+json');
      return;
    } catch (err) {
      if (err.status !== 422 && err.status !== 409) throw err;
    }
  }
  throw new Error(`cluster ${name} kept changing; try again`);
}

// Adds a taint (key, optional value, effect); one with the same key and effect is replaced,
// as `karmadactl taint --overwrite` would.
function taintForm(name, act) {
  const id = (f) => `taint-${f}-${name}`;
  const key = h('input', { id: id('key'), required: true, pattern: '[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?' });
  const value = h('input', { id: id('value') });
  const effect = h('select', { id: id('effect') }, ['NoSchedule', 'PreferNoSchedule', 'NoExecute'].map((e) => h('option', { value: e }, e)));
  return h('form', {
    class: 'inline', 'aria-label': `Add a taint to cluster ${name}`,
    onsubmit: (e) => {
      e.preventDefault();
      const taint = { key: key.value, effect: effect.value };
      if (value.value) taint.value = value.value;
      act(`taint ${taint.key}:${taint.effect} added`, 'Add taint',
        () => editTaints(name, (taints) => [...taints.filter((x) => !(x.key === taint.key && x.effect === taint.effect)), taint]));
    },
  }, h('label', { for: id('key') }, 'Taint key', key), h('label', { for: id('value') }, 'Value', value),
  h('label', { for: id('effect') }, 'Effect', effect), h('button', { type: 'submit', 'data-action': 'add-taint' }, 'Add taint'));
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

// Plane → members → workloads, as a picture; the same facts are in the tables for screen
// readers, so the picture is labelled as a summary.
export function topology(clusters, bindings) {
  const width = Math.max(400, clusters.length * 170);
  const height = 230;
  const root = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Plane with ${clusters.length} members` });
  root.appendChild(svg('rect', { x: width / 2 - 60, y: 5, width: 120, height: 30, fill: '#0d2238' }));
  const plane = svg('text', { x: width / 2, y: 25, 'text-anchor': 'middle' }, 'Karmada plane');
  plane.style.fill = '#fff';
  root.appendChild(plane);
  // Which bindings target each member, in one pass over the bindings (not one per member:
  // 10,000 bindings × 100 members on every redraw was a million checks).
  const byMember = new Map();
  for (const b of bindings) {
    for (const t of b.spec?.clusters || []) {
      if (!byMember.has(t.name)) byMember.set(t.name, []);
      byMember.get(t.name).push([b, t]);
    }
  }
  clusters.forEach((c, i) => {
    const x = (i + 0.5) * (width / clusters.length);
    const ready = condition(c, 'Ready')?.status === 'True';
    root.appendChild(svg('line', { x1: width / 2, y1: 35, x2: x, y2: 90, stroke: '#444' }));
    root.appendChild(svg('rect', { x: x - 70, y: 90, width: 140, height: 30, fill: '#fff', stroke: ready ? '#0a5c1f' : '#a00000', 'stroke-width': 2 }));
    root.appendChild(svg('text', { x, y: 110, 'text-anchor': 'middle' }, `${memberName(c.metadata.name)}${ready ? '' : ' (not Ready)'}`));
    const here = byMember.get(c.metadata.name) || [];
    here.slice(0, 5).forEach(([b, target], j) => {
      root.appendChild(svg('text', { x, y: 140 + j * 16, 'text-anchor': 'middle' }, `${b.spec.resource?.name} ×${target.replicas ?? '–'}`));
    });
    if (here.length > 5) root.appendChild(svg('text', { x, y: 140 + 5 * 16, 'text-anchor': 'middle' }, `… ${here.length - 5} more`));
  });
  return root;
}
