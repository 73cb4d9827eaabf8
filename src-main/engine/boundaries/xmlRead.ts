/**
 * A small XML reader for KML: elements, attributes, text and CDATA into a tree. It never reads a
 * DTD: a `<!DOCTYPE …>` (with any internal subset) is skipped unread, so no entity it declares is
 * defined, and no external entity is ever fetched or opened. Only XML's five predefined entities
 * and character references are expanded; any other `&name;` refuses the file, naming the entity.
 * Namespace prefixes are dropped from names (`kml:Placemark` is `Placemark`).
 */
import { BoundaryProblem, LIMITS } from './boundaryFile';

export type XmlElement = {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
};

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const MAX_DEPTH = 256;

function decodeEntities(s: string, where: number): string {
  if (!s.includes('&')) return s;
  return s.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';'))
      throw new BoundaryProblem(`The KML has a bare "&" near character ${where}; write it as &amp;.`);
    if (name.startsWith('#')) {
      const hex = name[1] === 'x' || name[1] === 'X';
      const digits = name.slice(hex ? 2 : 1);
      const code = (hex ? /^[0-9a-fA-F]{1,6}$/ : /^\d{1,7}$/).test(digits)
        ? parseInt(digits, hex ? 16 : 10)
        : NaN;
      // XML's Char: no NUL or other C0 control but tab and newlines, no surrogates, nothing past U+10FFFF.
      const allowed =
        code === 0x9 ||
        code === 0xa ||
        code === 0xd ||
        (code >= 0x20 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff));
      if (!allowed)
        throw new BoundaryProblem(
          `The KML has a character reference &${name.slice(0, 12)}; near character ${where} that is not a character XML allows.`,
        );
      return String.fromCodePoint(code);
    }
    const known = PREDEFINED[name];
    if (known !== undefined) return known;
    throw new BoundaryProblem(
      `The KML uses the entity &${name}; which Blotter does not expand: entities declared in a DOCTYPE are never read, and external ones never fetched.`,
    );
  });
}

const localName = (qname: string): string => qname.slice(qname.indexOf(':') + 1);

/** Elements parsed so far (shared by the KML files of one KMZ); parsing stops past LIMITS.kmlElements. */
export type XmlBudget = { elements: number };

export function parseXml(text: string, budget: XmlBudget = { elements: 0 }): XmlElement {
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let i = 0;
  const n = text.length;
  const fail = (why: string) =>
    new BoundaryProblem(`The KML is not well-formed XML: ${why} (near character ${i}).`);
  while (i < n) {
    const lt = text.indexOf('<', i);
    const top = stack[stack.length - 1] as XmlElement;
    if (lt < 0 || lt > i) {
      const chunk = text.slice(i, lt < 0 ? n : lt);
      if (stack.length > 1) top.text += decodeEntities(chunk, i);
      else if (chunk.trim()) throw fail('text outside the root element');
      if (lt < 0) break;
      i = lt;
      continue;
    }
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) throw fail('a comment is not closed');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) throw fail('a CDATA section is not closed');
      top.text += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) throw fail('a processing instruction is not closed');
      i = end + 2;
    } else if (text.startsWith('<!DOCTYPE', i) || text.startsWith('<!doctype', i)) {
      // Skipped unread: its internal subset (between [ and ]) may hold quoted '>' characters.
      let j = i + 9;
      let depth = 0;
      let quote = '';
      for (; j < n; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      if (j >= n) throw fail('the DOCTYPE is not closed');
      i = j + 1;
    } else if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i);
      if (end < 0) throw fail('a closing tag is not closed');
      const name = localName(text.slice(i + 2, end).trim());
      if (stack.length < 2 || top.name !== name) throw fail(`</${name}> does not close <${top.name}>`);
      stack.pop();
      i = end + 1;
    } else {
      const m = /^<([A-Za-z_][\w.:-]*)/.exec(text.slice(i, i + 300));
      if (!m) throw fail('a "<" that starts no tag');
      if (++budget.elements > LIMITS.kmlElements)
        throw new BoundaryProblem(
          `The KML holds more than ${LIMITS.kmlElements.toLocaleString('en-US')} elements (tags); at most that many are read. Split it, or keep only the placemarks you need.`,
        );
      const el: XmlElement = { name: localName(m[1] as string), attrs: {}, children: [], text: '' };
      let j = i + m[0].length;
      const attr = /\s*([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')|\s*(\/?>)/y;
      let closed = false;
      let selfClosing = false;
      while (!closed) {
        attr.lastIndex = j;
        const a = attr.exec(text);
        if (!a) throw fail(`the tag <${el.name}> is not well-formed`);
        j = attr.lastIndex;
        if (a[5]) {
          closed = true;
          selfClosing = a[5] === '/>';
        } else el.attrs[localName(a[1] as string)] = decodeEntities(a[3] ?? a[4] ?? '', j);
      }
      top.children.push(el);
      if (!selfClosing) {
        if (stack.length > MAX_DEPTH) throw fail('elements are nested too deep');
        stack.push(el);
      }
      i = j;
    }
  }
  if (stack.length > 1) throw fail(`<${(stack[stack.length - 1] as XmlElement).name}> is not closed`);
  return root;
}

/** Every descendant element called `name`, in document order. */
export function descendants(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

export const child = (el: XmlElement, name: string): XmlElement | undefined =>
  el.children.find((c) => c.name === name);
