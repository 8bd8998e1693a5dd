import { XMLParser } from 'fast-xml-parser';

/**
 * Office Open XML parts (slides, themes, relationships) read with fast-xml-parser in document order.
 * Its own bounds hold against hostile parts: nesting past MAX_DEPTH and entity expansion past its
 * defaults throw, and the walks below are iterative, so no part can exhaust the stack.
 */
export type XmlNode = Record<string, unknown>;

const MAX_DEPTH = 256;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: true,
  htmlEntities: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  maxNestedTags: MAX_DEPTH,
});

/** The part's top-level nodes; throws on XML the parser refuses (too deep, too many entities). */
export function parseXml(xml: string): XmlNode[] {
  return parser.parse(xml) as XmlNode[];
}

/** The element's name ('#text' for text). */
export function nameOf(node: XmlNode): string {
  for (const key in node) if (key !== ':@') return key;
  return '';
}

function childrenOf(node: XmlNode): XmlNode[] {
  const value = node[nameOf(node)];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

export function attributeOf(node: XmlNode, name: string): string | undefined {
  const attributes = node[':@'] as Record<string, string> | undefined;
  return attributes?.[name];
}

/** Every element named `name` under `nodes`, in document order (matches inside matches included). */
export function elementsNamed(nodes: XmlNode[], name: string): XmlNode[] {
  const found: XmlNode[] = [];
  const stack = [...nodes].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (nameOf(node) === name) found.push(node);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}

export function firstNamed(nodes: XmlNode[], name: string): XmlNode | undefined {
  return elementsNamed(nodes, name)[0];
}

/** The text of an element: every text node under it, in order. */
export function textOf(node: XmlNode): string {
  return elementsNamed([node], '#text')
    .map((t) => String(t['#text']))
    .join('');
}
