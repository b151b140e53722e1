// The overview: requests per second, error rate, p50/p99 over the last minute, open
// connections, config generation, and a chart of the last two minutes (drawn as SVG).
import { api } from './api.js';
import { el, svg, fill, ms } from './util.js';

const $ = (id) => document.getElementById(id);

/** Reloads the figures and the chart. */
export async function loadOverview() {
  const o = await api('GET', '/overview');
  const m = o.last_minute || {};
  fill($('overview-figures'),
    figure('Requests per second', m.requests_per_second.toFixed(1)),
    figure('Error rate', `${(m.error_rate * 100).toFixed(1)} %`),
    figure('p50', `${ms(m.p50_ms)} ms`),
    figure('p99', `${ms(m.p99_ms)} ms`),
    figure('Open connections', String(o.connections)),
    figure('Config generation', String(o.config_generation)),
    figure('Exchanges seen', String(o.exchanges)));
  chart(o.seconds || []);
}

function figure(label, value) {
  return el('div', {}, el('dt', {}, label), el('dd', {}, value));
}

function chart(seconds) {
  const box = $('overview-chart');
  const width = 600;
  const height = 160;
  const peak = Math.max(1, ...seconds.map((s) => s.requests));
  const slowest = Math.max(1, ...seconds.map((s) => s.p99_ms || 0));
  const step = width / Math.max(1, seconds.length);
  const bars = seconds.map((s, i) => svg('rect', { class: 'bar', x: i * step, y: height - (s.requests / peak) * (height - 14), width: Math.max(1, step - 1), height: (s.requests / peak) * (height - 14) }));
  const points = seconds.map((s, i) => (s.p99_ms ? `${i * step + step / 2},${height - (s.p99_ms / slowest) * (height - 14)}` : null)).filter(Boolean);
  fill(box, bars, points.length ? svg('polyline', { class: 'line', points: points.join(' ') }) : null);
  // The scale goes in the caption: text inside a stretched SVG would be distorted.
  $('chart-caption').textContent = `Requests per second (bars, peak ${peak}) and p99 latency (line, up to ${ms(slowest)} ms), last 2 minutes`;
}
