/** Children `h` accepts: nodes, text (set as text, never parsed as HTML), or nothing. */
export type Child = Node | string | number | null | undefined | false;

type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * Creates an element. Attributes whose value is a function and whose name starts with `on` are
 * event listeners; `false`, `null` and `undefined` leave an attribute out; text children become
 * text nodes, so nothing the API returns is ever parsed as HTML.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

/** Appends children to a node, skipping the empty ones. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces a node's children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}
