// Small DOM helpers: every text goes in as a text node, never as HTML.

/** Creates an element with attributes (strings; `on*` keys as listeners) and children. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** An SVG element with attributes. */
export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces `node`'s children. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** Milliseconds for a table: one decimal under 10 ms. */
export function ms(value) {
  if (value === undefined || value === null) return '–';
  return value < 10 ? value.toFixed(1) : Math.round(value).toString();
}

/** A definition list from [label, value] pairs (values may be nodes). */
export function definitions(pairs) {
  return el('dl', {}, pairs.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
}

/** A table with a header row and rows of cells. */
export function table(caption, headers, rows, className = '') {
  return el('table', { class: className },
    el('caption', { class: 'sr-only' }, caption),
    el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((cells) => el('tr', {}, cells.map((c) => el('td', {}, c))))));
}

/** The CSS class for a status: s2…s5, or serr without one. */
export function statusClass(status) {
  return status ? `s${Math.floor(status / 100)}` : 'serr';
}
