// One exchange's detail: redacted headers, a timing waterfall, body previews, HTTP/2 facts,
// and "fail this request".
import { api } from './api.js';
import { el, svg, fill, ms, definitions, table, statusClass } from './util.js';
import { openEditor } from './editor.js';

const $ = (id) => document.getElementById(id);

/** Loads exchange `seq` into the detail pane. */
export async function showDetail(seq) {
  const pane = $('detail');
  pane.hidden = false;
  const body = $('detail-body');
  fill(body, el('p', { class: 'muted' }, 'Loading…'));
  let x;
  try {
    x = await api('GET', `/exchanges/${seq}`);
  } catch (error) {
    fill(body, el('p', { class: 'error' }, error.message));
    return;
  }
  const d = x.detail || {};
  $('detail-title').textContent = `${x.method || '?'} ${x.path || ''}`;
  const h2 = x.h2_stream ? `stream ${x.h2_stream}${x.h2_error ? `, ${x.h2_error.code} (${x.h2_error.frame} from ${x.h2_error.sender})` : ''}` : null;
  fill(body,
    el('div', { class: 'actions' },
      el('button', { type: 'button', class: 'primary', id: 'fail-this', onclick: () => openEditor(x) }, 'Fail this request'),
      el('button', { type: 'button', onclick: () => { $('detail').hidden = true; } }, 'Close')),
    definitions([
      ['Status', el('span', { class: statusClass(x.status) }, x.status || x.error || '–')],
      ['URL', `${x.scheme || 'http'}://${x.host || ''}${x.path || ''}${x.query ? `?${x.query}` : ''}`],
      ['Protocol', x.protocol],
      ['HTTP/2', h2],
      ['Route', x.route], ['Upstream', x.upstream], ['Session', x.session],
      ['Faults', (x.faults || []).join(', ')],
      ['Pin', x.pin],
      ['Error', d.error_message || x.error],
      ['Time', x.time],
      ['Bytes', `${x.request_bytes ?? 0} up, ${x.response_bytes ?? 0} down`],
    ]),
    el('h4', {}, 'Timings'),
    waterfall(d),
    el('h4', {}, 'Request headers'),
    headers(d.request_headers, d.headers_captured, 'Request headers'),
    el('h4', {}, 'Response headers'),
    headers(d.response_headers, d.headers_captured, 'Response headers'),
    d.request_body ? [el('h4', {}, 'Request body (preview)'), el('pre', {}, d.request_body)] : null,
    d.response_body ? [el('h4', {}, 'Response body (preview)'), el('pre', {}, d.response_body)] : null,
    d.redacted && d.redacted.length ? el('p', { class: 'muted' }, `Redacted: ${d.redacted.join(', ')}`) : null);
}

function headers(list, captured, caption) {
  if (!captured) return el('p', { class: 'muted' }, 'Not captured: the log policy keeps no headers (set log.headers, or capture HAR).');
  return table(caption, ['Name', 'Value'], (list || []).map(([n, v]) => [n, v]), 'headers');
}

function waterfall(d) {
  const total = d.total_ms || 0;
  if (!total) return el('p', { class: 'muted' }, 'No timings.');
  const connect = d.connect_ms || 0;
  const tls = d.tls_ms || 0;
  const first = d.first_byte_ms || 0;
  const scale = (v) => (v / total) * 300;
  const rows = [
    ['connect', 0, connect, 'connect'],
    ['TLS', connect, tls, 'tls'],
    ['first byte', 0, first, 'wait'],
    ['total', 0, total, 'rest'],
  ];
  const chart = svg('svg', { class: 'waterfall', viewBox: '0 0 420 88', preserveAspectRatio: 'xMinYMin meet', role: 'img', 'aria-label': `Timings: connect ${ms(connect)} ms, TLS ${ms(tls)} ms, first byte ${ms(first)} ms, total ${ms(total)} ms` });
  rows.forEach(([label, from, length, cls], i) => {
    chart.append(svg('rect', { x: scale(from), y: i * 22 + 4, width: Math.max(length ? 1 : 0, scale(length)), height: 14, class: cls }));
    chart.append(svg('text', { x: 306, y: i * 22 + 15 }, `${label} ${ms(length)} ms`));
  });
  return chart;
}
