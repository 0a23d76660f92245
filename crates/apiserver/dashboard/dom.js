// Building the page from data without ever parsing data as markup: every value becomes a
// text node, so an object's name cannot inject script (the CSP would refuse it anyway).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// Replaces an element's content.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

// A table with a caption, column headers and rows of cells; `empty` when there are no rows.
export function table(caption, headers, rows, empty) {
  if (!rows.length) return h('p', { class: 'muted' }, empty || 'None.');
  return h('table', {},
    h('caption', { class: 'muted' }, caption),
    h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows.map((r) => h('tr', r.attrs || {}, (r.cells || r).map((c) => h('td', {}, c))))));
}

// The condition of `type` in an object's status.
export function condition(obj, type) {
  return (obj?.status?.conditions || []).find((c) => c.type === type);
}

// "True" as a green word, anything else as a red one, with the message as a tooltip.
export function conditionText(c) {
  if (!c) return h('span', { class: 'muted' }, 'unknown');
  return h('span', { class: c.status === 'True' ? 'ok' : 'bad', title: c.message || '' }, c.status === 'True' ? c.type : `${c.type}: ${c.status}`);
}

export function key(obj) {
  const m = obj.metadata || {};
  return m.namespace ? `${m.namespace}/${m.name}` : m.name;
}

// Kubernetes quantities ("1500m", "2Gi", "10") as numbers, for the usage bars.
export function quantity(q) {
  if (q === undefined || q === null) return 0;
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(String(q));
  if (!m) return 0;
  const units = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
  return parseFloat(m[1]) * (units[m[2]] ?? 1);
}

// A usage bar with its numbers written out, so it reads without colour too.
export function usage(label, allocated, allocatable) {
  const used = quantity(allocated), total = quantity(allocatable);
  const pct = total > 0 ? Math.min(100, Math.round((used / total) * 100)) : 0;
  return h('span', {},
    h('span', { class: 'bar', role: 'img', 'aria-label': `${label} ${pct}% allocated` }, h('span', { style: null, 'data-pct': pct })),
    ` ${allocated ?? 0} / ${allocatable ?? 0}`);
}

// Usage bars' widths are set from script: inline style attributes would need 'unsafe-inline'.
export function sizeBars(root) {
  for (const s of root.querySelectorAll('[data-pct]')) s.style.width = `${s.dataset.pct}%`;
}
