// The effective rules in match order, with their source, counters and switches; the
// network profiles as one click (a runtime rule named "network-profile" matching every request).
import { api } from './api.js';
import { el, fill, table } from './util.js';

const $ = (id) => document.getElementById(id);
const PROFILE_RULE = 'network-profile';
let notify = () => {};

/** Wires the profile buttons; `status(text)` reports outcomes. */
export function initRules(status) {
  notify = status;
  for (const button of document.querySelectorAll('[data-profile]')) {
    button.addEventListener('click', () => setProfile(button.dataset.profile));
  }
}

/** Reloads the rule list. */
export async function loadRules() {
  const list = await api('GET', '/rules');
  const rules = list.rules || [];
  const profile = rules.find((r) => r.name === PROFILE_RULE);
  $('profile-state').textContent = profile ? `active: ${profile.faults.map((f) => f.profile).join(', ')}` : 'none active';
  fill($('rules-list'), rules.length ? rules.map(ruleCard) : el('p', { class: 'muted' }, 'No rules.'),
    list.stale && list.stale.length ? el('p', { class: 'error' }, `Stale runtime rules: ${list.stale.join(', ')}`) : null);
}

function matchText(match) {
  const parts = [];
  if (match.methods) parts.push(match.methods.join('|'));
  if (match.host) parts.push(match.host);
  if (match.path) parts.push(match.path);
  if (match.path_prefix) parts.push(`${match.path_prefix}*`);
  if (match.path_glob) parts.push(match.path_glob);
  for (const [key, label] of [['headers', 'header'], ['query', 'query'], ['cookies', 'cookie'], ['json', 'json']]) {
    for (const [name, condition] of Object.entries(match[key] || {})) parts.push(conditionText(label, name, condition));
  }
  if (match.client) parts.push(`from ${match.client.join(', ')}`);
  if (match.not) parts.push(`not (${matchText(match.not)})`);
  return parts.length ? parts.join(' ') : 'every request';
}

// A head or body condition as the config writes it: a value (exact or glob), true (present)
// or false (absent).
function conditionText(label, name, condition) {
  if (condition === true) return `${label} ${name} present`;
  if (condition === false) return `${label} ${name} absent`;
  return `${label} ${name}=${typeof condition === 'string' ? condition : JSON.stringify(condition)}`;
}

function ruleCard(rule) {
  const id = `rule-${rule.name}`;
  const name = encodeURIComponent(rule.name);
  const toggle = el('input', { type: 'checkbox', role: 'switch', id: `${id}-enabled`, checked: rule.enabled,
    onchange: (event) => change(`/rules/${name}/${event.target.checked ? 'enable' : 'disable'}`) });
  const faults = (rule.faults || []).map((fault) => {
    const faultSwitch = el('input', { type: 'checkbox', role: 'switch', checked: fault.enabled, 'aria-label': `fault ${fault.name} of ${rule.name} on`,
      'data-rule': rule.name, 'data-fault': fault.name,
      onchange: (event) => change(`/rules/${name}/faults/${encodeURIComponent(fault.name)}/${event.target.checked ? 'enable' : 'disable'}`) });
    const stats = fault.stats || {};
    return [faultSwitch, `${fault.name} (${fault.kind})`, JSON.stringify(fault[fault.kind]), fault.when ? JSON.stringify(fault.when) : 'always',
      String(stats.matched ?? 0), String(stats.fired ?? 0), String(stats.active ?? 0)];
  });
  return el('article', { class: 'rule', 'aria-label': `rule ${rule.name}` },
    el('header', {},
      el('strong', {}, rule.name),
      el('span', { class: 'muted' }, `${rule.source} · ${matchText(rule.match || {})}${rule.upstream ? ` → ${rule.upstream}` : ''}`),
      el('label', { class: 'switch', for: `${id}-enabled` }, toggle, 'enabled'),
      rule.source === 'runtime' ? el('button', { type: 'button', onclick: () => remove(rule.name) }, 'Delete') : null),
    faults.length ? table(`Faults of ${rule.name}`, ['On', 'Fault', 'Parameters', 'When', 'Matched', 'Fired', 'Active'], faults)
      : el('p', { class: 'muted' }, 'No faults: requests pass to the upstream.'));
}

async function change(path) {
  try {
    await api('POST', path);
    notify(`${path.split('/').slice(-1)[0]}d`);
  } catch (error) {
    notify(error.message);
  }
  await loadRules();
}

async function remove(name) {
  try {
    await api('DELETE', `/rules/${encodeURIComponent(name)}`);
    notify(`rule ${name} deleted`);
  } catch (error) {
    notify(error.message);
  }
  await loadRules();
}

async function setProfile(profile) {
  const rule = { name: PROFILE_RULE, match: {}, faults: [{ name: 'profile', profile }] };
  try {
    const list = await api('GET', '/rules');
    const exists = (list.rules || []).some((r) => r.name === PROFILE_RULE);
    if (!profile) {
      if (exists) await api('DELETE', `/rules/${PROFILE_RULE}`);
    } else if (exists) {
      await api('PUT', `/rules/${PROFILE_RULE}`, rule);
    } else {
      await api('POST', '/rules', { ...rule, position: 'start' });
    }
    notify(profile ? `network profile ${profile} on` : 'network profile off');
  } catch (error) {
    notify(error.message);
  }
  await loadRules();
}
