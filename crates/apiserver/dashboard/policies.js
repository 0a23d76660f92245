// Policies: propagation and override policies with the bindings each claimed, an editor that
// server-side applies YAML or JSON (previewed first with dryRun=All), and delete behind a
// confirmation. The manifest is sent as written: the plane parses and validates it.

import { call, follow, PATHS, describe } from './api.js';
import { h, fill, table } from './dom.js';

const KINDS = {
  PropagationPolicy: { path: 'propagationpolicies', namespaced: true },
  ClusterPropagationPolicy: { path: 'clusterpropagationpolicies', namespaced: false },
  OverridePolicy: { path: 'overridepolicies', namespaced: true },
  ClusterOverridePolicy: { path: 'clusteroverridepolicies', namespaced: false },
};

const EXAMPLE = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: example
  namespace: default
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: example
  placement:
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
`;

export function render(main, ctx) {
  const body = h('div', {});
  const editor = editorSection(ctx);
  fill(main, h('h1', {}, 'Policies'), body, editor.el);
  return follow({ pp: PATHS.pp, cpp: PATHS.cpp, op: PATHS.op, cop: PATHS.cop, rb: PATHS.rb }, (d, errors) => {
    const claimed = (p) => (d.rb || []).filter((b) => {
      const a = b.metadata.annotations || {};
      return p.kind === 'PropagationPolicy'
        ? a['propagationpolicy.karmada.io/name'] === p.metadata.name && a['propagationpolicy.karmada.io/namespace'] === p.metadata.namespace
        : a['clusterpropagationpolicy.karmada.io/name'] === p.metadata.name;
    }).map((b) => b.spec?.resource?.name).join(', ');
    const rows = (items, kind) => (items || []).map((p) => {
      p.kind = kind;
      return { attrs: { 'data-policy': `${kind}/${p.metadata.namespace || ''}/${p.metadata.name}` }, cells: [kind, p.metadata.namespace || '', p.metadata.name,
        (p.spec?.resourceSelectors || []).map((s) => `${s.kind} ${s.name || (s.labelSelector ? 'by label' : '*')}`).join(', '),
        kind.includes('Propagation') ? claimed(p) : '',
        h('span', {}, h('button', { type: 'button', 'aria-label': `Edit ${kind} ${p.metadata.namespace || ''}/${p.metadata.name}`, onclick: () => editor.load(p) }, `Edit ${p.metadata.name}`), ' ',
          h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${kind} ${p.metadata.namespace || ''}/${p.metadata.name}`, onclick: () => confirmDelete(p, kind, ctx) }, `Delete ${p.metadata.name}`))] };
    });
    fill(body,
      Object.entries(errors).map(([n, err]) => h('p', { class: 'error', role: 'alert' }, `${n}: ${describe(err)}`)),
      table('Propagation and override policies', ['Kind', 'Namespace', 'Name', 'Selects', 'Claimed workloads', 'Actions'],
        [...rows(d.pp, 'PropagationPolicy'), ...rows(d.cpp, 'ClusterPropagationPolicy'), ...rows(d.op, 'OverridePolicy'), ...rows(d.cop, 'ClusterOverridePolicy')],
        'No policies.'));
  });
}

function url(kind, namespace, name) {
  const k = KINDS[kind];
  if (!k) throw new Error(`kind ${kind || '(none)'} is not one of ${Object.keys(KINDS).join(', ')}`);
  if (!name) throw new Error('metadata.name is required');
  const ns = k.namespaced ? `/namespaces/${encodeURIComponent(namespace || 'default')}` : '';
  return `/apis/policy.karmada.io/v1alpha1${ns}/${k.path}/${encodeURIComponent(name)}`;
}

// kind, metadata.name and metadata.namespace of a JSON or YAML manifest, enough to address
// it; YAML is read only at the top level and directly under `metadata:`.
export function identify(text) {
  const t = text.trim();
  if (t.startsWith('{')) {
    const o = JSON.parse(t);
    return { kind: o.kind, name: o.metadata?.name, namespace: o.metadata?.namespace };
  }
  const out = {};
  let inMeta = false;
  for (const line of t.split('\n')) {
    const top = /^([A-Za-z]+):\s*(.*?)\s*$/.exec(line);
    if (top) { inMeta = top[1] === 'metadata'; if (top[1] === 'kind') out.kind = unquote(top[2]); continue; }
    const sub = /^\s+(name|namespace):\s*(.*?)\s*$/.exec(line);
    if (inMeta && sub && !(sub[1] in out)) out[sub[1]] = unquote(sub[2]);
  }
  return out;
}

function unquote(v) { return v.replace(/^(["'])(.*)\1$/, '$2'); }

function editorSection(ctx) {
  const text = h('textarea', { id: 'policy-yaml', spellcheck: 'false', 'aria-describedby': 'policy-help' });
  text.value = EXAMPLE;
  const output = h('pre', { id: 'policy-result', role: 'status', tabindex: '0' });
  const send = async (dryRun) => {
    try {
      const id = identify(text.value);
      const q = `?fieldManager=karmada-dashboard&force=true${dryRun ? '&dryRun=All' : ''}`;
      const result = await call('PATCH', url(id.kind, id.namespace, id.name) + q, text.value, 'application/apply-patch+yaml');
      delete result.metadata?.managedFields;
      fill(output, `${dryRun ? 'Dry run (nothing saved)' : 'Applied'}: ${id.kind} ${id.name}\n\n${JSON.stringify(result, null, 2)}`);
      output.className = '';
    } catch (err) {
      fill(output, `Refused: ${describe(err)}`);
      output.className = 'error';
      ctx.notice(`Refused: ${describe(err)}`);
    }
  };
  const el = h('section', { 'aria-labelledby': 'policy-editor' },
    h('h2', { id: 'policy-editor' }, 'Create or edit a policy'),
    h('p', { id: 'policy-help' }, 'YAML or JSON of a PropagationPolicy, ClusterPropagationPolicy, OverridePolicy or ClusterOverridePolicy. Preview runs it through the plane with dryRun=All; Apply saves it (server-side apply).'),
    h('label', { for: 'policy-yaml' }, 'Manifest'), text,
    h('p', {}, h('button', { type: 'button', id: 'policy-preview', onclick: () => send(true) }, 'Preview (dry run)'), ' ',
      h('button', { type: 'button', class: 'primary', id: 'policy-apply', onclick: () => send(false) }, 'Apply')),
    output);
  return {
    el,
    load(p) {
      const copy = { apiVersion: 'policy.karmada.io/v1alpha1', kind: p.kind, metadata: { name: p.metadata.name, namespace: p.metadata.namespace, labels: p.metadata.labels }, spec: p.spec };
      text.value = JSON.stringify(copy, null, 2);
      text.focus();
    },
  };
}

function confirmDelete(p, kind, ctx) {
  const what = `${kind} ${p.metadata.namespace ? `${p.metadata.namespace}/` : ''}${p.metadata.name}`;
  const dialog = h('dialog', { 'aria-labelledby': 'confirm-title' },
    h('h2', { id: 'confirm-title' }, `Delete ${what}?`),
    h('p', {}, 'The plane deletes it at once; this cannot be undone from here.'),
    h('form', { method: 'dialog' },
      h('button', { value: 'cancel', autofocus: true }, 'Cancel'), ' ',
      h('button', { value: 'delete', class: 'danger', id: 'confirm-delete' }, 'Delete')));
  dialog.addEventListener('close', async () => {
    const answer = dialog.returnValue;
    dialog.remove();
    if (answer !== 'delete') return;
    try {
      await call('DELETE', url(kind, p.metadata.namespace, p.metadata.name));
      ctx.notice('');
    } catch (err) {
      ctx.notice(`Delete refused: ${describe(err)}`);
    }
  });
  document.body.appendChild(dialog);
  dialog.showModal();
}
