// Calls to the plane's own REST API as the logged-in user. Every call carries the anti-CSRF
// header the plane requires next to the session cookie. Lists are followed by watches, so
// views update from changes instead of polling whole lists.

export const CSRF = { 'X-Karmada-Dashboard': '1' };

// Fires when something learned outside the followed lists (which members are simulated)
// changes what views show; every followed view redraws.
export const factsChanged = new EventTarget();

export class ApiError extends Error {
  constructor(status, body, text) {
    super(body?.message || text || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

// What happens when the session has ended (expired, logged out elsewhere, plane restarted):
// app.js shows the login form. The login endpoint's own 401s are the form's to show.
let unauthorized = () => {};
export function onUnauthorized(handler) { unauthorized = handler; }

export async function call(method, path, body, contentType) {
  const headers = { ...CSRF, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = contentType || 'application/json';
  const r = await fetch(path, { method, headers, body, credentials: 'same-origin', cache: 'no-store' });
  const text = await r.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (r.status === 401 && !path.startsWith('/dashboard/api/session')) unauthorized();
  if (!r.ok) throw new ApiError(r.status, json, text);
  return json;
}

// How an API error is shown: the code and the server's message (the 403 names the user and
// the verb it may not use).
export function describe(err) {
  if (err instanceof ApiError) return `${err.status} ${err.body?.reason || ''}: ${err.message}`;
  return String(err?.message || err);
}

// A list of `path` kept current by a watch. `onChange(items)` runs after the list and after
// every batch of events; `onError(err)` when listing fails (a 403, say). A watch that ends is
// resumed from the last resourceVersion; a 410 (history compacted) lists again.
export class Live {
  constructor(path, onChange, onError) {
    this.path = path;
    this.onChange = onChange;
    this.onError = onError || (() => {});
    this.items = new Map();
    this.stopped = false;
    this.abort = new AbortController();
  }

  start() { this.loop(); return this; }

  stop() { this.stopped = true; this.abort.abort(); }

  list() { return [...this.items.values()]; }

  async relist() {
    const list = await call('GET', this.path);
    this.items = new Map((list.items || []).map((o) => [o.metadata.uid, o]));
    this.rv = list.metadata?.resourceVersion;
    this.onChange(this.list());
  }

  async loop() {
    let delay = 500;
    while (!this.stopped) {
      try {
        if (!this.rv) await this.relist();
        await this.watch();
        delay = 500;
      } catch (err) {
        if (this.stopped) return;
        if (err instanceof ApiError && err.status === 401) return unauthorized();
        if (err instanceof ApiError && err.status === 403) this.onError(err);
        if (err instanceof ApiError && err.status === 410) this.rv = undefined;
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 10000);
      }
    }
  }

  async watch() {
    const sep = this.path.includes('?') ? '&' : '?';
    const url = `${this.path}${sep}watch=1&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(this.rv)}`;
    const r = await fetch(url, { headers: { ...CSRF }, credentials: 'same-origin', cache: 'no-store', signal: this.abort.signal });
    if (!r.ok) throw new ApiError(r.status, null, await r.text());
    const reader = r.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let changed = false, nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) changed = this.apply(JSON.parse(line)) || changed;
      }
      if (changed) this.onChange(this.list());
    }
  }

  apply(event) {
    const o = event.object || {};
    if (event.type === 'ERROR') {
      if (o.code === 410) this.rv = undefined;
      throw new ApiError(o.code || 500, o);
    }
    if (o.metadata?.resourceVersion) this.rv = o.metadata.resourceVersion;
    if (event.type === 'BOOKMARK') return false;
    if (event.type === 'DELETED') this.items.delete(o.metadata.uid);
    else this.items.set(o.metadata.uid, o);
    return true;
  }
}

export const PATHS = {
  clusters: '/apis/cluster.karmada.io/v1alpha1/clusters',
  pp: '/apis/policy.karmada.io/v1alpha1/propagationpolicies',
  cpp: '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies',
  op: '/apis/policy.karmada.io/v1alpha1/overridepolicies',
  cop: '/apis/policy.karmada.io/v1alpha1/clusteroverridepolicies',
  rb: '/apis/work.karmada.io/v1alpha2/resourcebindings',
  crb: '/apis/work.karmada.io/v1alpha2/clusterresourcebindings',
  works: '/apis/work.karmada.io/v1alpha1/works',
  deployments: '/apis/apps/v1/deployments',
  events: '/api/v1/events',
};

// A selector that finds an element again after a redraw: its id or its label.
function focusKey(el) {
  if (!el || el === document.body || el.id === 'main') return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const label = el.getAttribute('aria-label');
  return label ? `${el.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]` : null;
}

// Follows several lists at once and calls `draw({name: items})` (at most once per frame)
// when any changes; a list that cannot be read is passed as `null` and its error to
// `onError`, so a view can show what the user may not see.
export function follow(paths, draw, onError) {
  const data = {};
  const errors = {};
  let pending = false;
  const redraw = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      // A redraw replaces the elements; keyboard focus moves to the new twin of the one
      // that had it, so a live update does not throw the user back to the top.
      const again = focusKey(document.activeElement);
      draw(data, errors);
      const twin = again && document.querySelector(again);
      if (twin && twin !== document.activeElement) twin.focus();
    });
  };
  factsChanged.addEventListener('change', redraw);
  const lives = Object.entries(paths).map(([name, path]) => {
    data[name] = null;
    return new Live(path, (items) => { data[name] = items; delete errors[name]; redraw(); }, (err) => {
      errors[name] = err;
      if (onError) onError(name, err);
      redraw();
    }).start();
  });
  return {
    stop: () => {
      factsChanged.removeEventListener('change', redraw);
      lives.forEach((l) => l.stop());
    },
  };
}
