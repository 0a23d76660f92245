// The dashboard's entry point: logs in (a one-time code from the link's fragment, or a
// pasted bearer token), then routes `#/<view>` to the view modules. The fragment never
// reaches the server or a Referer, and is wiped from history as soon as it is read.

import { call, describe, onUnauthorized } from './api.js';
import { h, fill } from './dom.js';
import * as overview from './overview.js';
import * as clusters from './clusters.js';
import * as workloads from './workloads.js';
import * as policies from './policies.js';
import * as bindings from './bindings.js';
import * as events from './events.js';

const VIEWS = { overview, clusters, workloads, policies, bindings, events };
const main = document.getElementById('main');
let current = null;
// Whether the views are showing; every list that hits the ended session reports it, and the
// login form is shown once.
let active = false;

export function notice(text) {
  const el = document.getElementById('notice');
  fill(el, text || '');
  if (text) setTimeout(() => { if (el.textContent === text) fill(el); }, 15000);
}

onUnauthorized(() => {
  if (!active) return;
  active = false;
  if (current?.stop) current.stop();
  current = null;
  window.removeEventListener('hashchange', route);
  document.getElementById('nav').hidden = true;
  document.getElementById('logout').hidden = true;
  fill(document.getElementById('who'));
  showLogin('Your session has ended (it expired, was logged out, or the plane restarted). Log in again.');
});

async function start() {
  const code = new URLSearchParams(location.hash.slice(1)).get('code');
  if (code) {
    history.replaceState(null, '', `${location.pathname}#/overview`);
    try {
      await call('POST', '/dashboard/api/session', JSON.stringify({ code }));
    } catch (err) {
      return showLogin(`The login link did not work: ${describe(err)}. Run "karmadactl dashboard" for a new one, or paste a token.`);
    }
  }
  let session;
  try {
    session = await call('GET', '/dashboard/api/session');
  } catch {
    return showLogin();
  }
  loggedIn(session.user);
}

function showLogin(message) {
  const token = h('textarea', { id: 'token', rows: 4, autocomplete: 'off', spellcheck: 'false', required: true });
  const form = h('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        const s = await call('POST', '/dashboard/api/session', JSON.stringify({ token: token.value }));
        loggedIn(s.user);
      } catch (err) {
        fill(errBox, `Login refused: ${describe(err)}`);
      }
    },
  },
  h('label', { for: 'token' }, 'Bearer token'), token,
  h('p', {}, h('button', { type: 'submit', class: 'primary' }, 'Log in')));
  const errBox = h('p', { role: 'alert', class: message ? 'error' : '' }, message || '');
  fill(main, h('h1', {}, 'Log in'),
    h('p', {}, 'Run ', h('code', {}, 'karmadactl dashboard'), ' for a one-time login link, or paste a bearer token (a service account token, say).'),
    errBox, form);
  token.focus();
}

function loggedIn(user) {
  active = true;
  fill(document.getElementById('who'), `Logged in as ${user.username}`);
  document.getElementById('nav').hidden = false;
  const logout = document.getElementById('logout');
  logout.hidden = false;
  logout.onclick = async () => {
    await call('DELETE', '/dashboard/api/session').catch(() => {});
    location.hash = '';
    location.reload();
  };
  window.addEventListener('hashchange', route);
  if (!location.hash.startsWith('#/')) history.replaceState(null, '', '#/overview');
  route();
}

function route() {
  const name = location.hash.slice(2).split('/')[0] || 'overview';
  const view = VIEWS[name] || overview;
  if (current?.stop) current.stop();
  for (const a of document.querySelectorAll('nav a')) {
    if (a.getAttribute('href') === `#/${name}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  fill(main);
  main.dataset.view = name;
  current = view.render(main, { notice });
  main.focus();
}

start();
