// Events: the newest events of every namespace, updated as they arrive.

import { follow, PATHS, describe } from './api.js';
import { h, fill, table } from './dom.js';

const SHOWN = 200;

export function render(main) {
  const body = h('div', {});
  fill(main, h('h1', {}, 'Events'), body);
  return follow({ events: PATHS.events }, (d, errors) => {
    if (errors.events) return fill(body, h('p', { class: 'error', role: 'alert' }, describe(errors.events)));
    const when = (e) => e.lastTimestamp || e.eventTime || e.metadata.creationTimestamp || '';
    const events = (d.events || []).sort((a, b) => when(b).localeCompare(when(a))).slice(0, SHOWN);
    fill(body, table(`The newest ${SHOWN} events`, ['Last seen', 'Type', 'Reason', 'Object', 'Message', 'Count'],
      events.map((e) => [when(e), h('span', { class: e.type === 'Warning' ? 'bad' : '' }, e.type || ''), e.reason || '',
        `${e.involvedObject?.kind || ''} ${e.involvedObject?.namespace ? `${e.involvedObject.namespace}/` : ''}${e.involvedObject?.name || ''}`,
        e.message || '', e.count ?? 1]), 'No events.'));
  });
}
