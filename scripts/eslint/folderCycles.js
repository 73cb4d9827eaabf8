// ESLint rule `blotter/no-folder-cycle`: the folders directly under a root (src-main/engine: alerts,
// api, sync, query…) form a directed graph with no circles among their runtime imports. A circle
// means no folder in it can be read, tested or moved alone; nine engine folders once formed one
// (issue 29). Type-only imports may cross (`import type`, or `import { type A }` with every name a
// type): they vanish at runtime. Tests and test helpers may cross too (they wire folders together).
// Files directly in the root (services.ts, context.ts: the composition root) are not a folder.
//
// The whole root is read once per lint run (TypeScript's parser, imports only); each import that
// closes a circle is reported where it is written, with the circle it closes.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @param {string} file */
export const isTestFile = (file) =>
  /\.(test|bench)\.tsx?$/.test(file) ||
  /(Testing|testFixtures|\.testing)\.tsx?$/.test(file) ||
  /(^|[\\/])(testing|fixtures)[\\/]/.test(file);

/** Runtime import specifiers of one source text (static imports, re-exports, dynamic imports). */
export function runtimeImports(text, fileName = 'x.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  /** @type {string[]} */
  const specs = [];
  const visit = (/** @type {ts.Node} */ node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specs;
}

/** The top folder under `root` that `file` sits in, or null for a file directly in the root or outside it. */
export function folderOf(root, file) {
  const rel = path.relative(root, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  /** @type {string[]} */
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !isTestFile(full)) out.push(full);
  }
  return out;
}

/**
 * The folder graph of `root`: for each folder, the folders it imports at runtime, with one example
 * import per edge (file and specifier).
 * @param {string} root
 * @returns {Map<string, Map<string, {file: string, spec: string}>>}
 */
export function folderGraph(root) {
  /** @type {Map<string, Map<string, {file: string, spec: string}>>} */
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const from = folderOf(root, file);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const spec of runtimeImports(fs.readFileSync(file, 'utf8'), file)) {
      if (!spec.startsWith('.')) continue;
      const to = folderOf(root, path.resolve(path.dirname(file), spec));
      if (!to || to === from) continue;
      const edges = /** @type {Map<string, {file: string, spec: string}>} */ (graph.get(from));
      if (!edges.has(to)) edges.set(to, { file, spec });
    }
  }
  return graph;
}

/**
 * Strongly connected components of more than one folder (Tarjan): each is a circle.
 * @param {Map<string, Map<string, unknown>>} graph
 * @returns {string[][]}
 */
export function circles(graph) {
  let index = 0;
  /** @type {Map<string, number>} */ const order = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */ const found = [];
  const connect = (/** @type {string} */ v) => {
    order.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(/** @type {number} */ (low.get(v)), /** @type {number} */ (low.get(w))));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(/** @type {number} */ (low.get(v)), /** @type {number} */ (order.get(w))));
      }
    }
    if (low.get(v) === order.get(v)) {
      /** @type {string[]} */ const component = [];
      let w;
      do {
        w = /** @type {string} */ (stack.pop());
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!order.has(v)) connect(v);
  return found;
}

/** A shortest path of folders from `from` to `to` in the graph (both included), or null. */
export function pathBetween(graph, from, to) {
  /** @type {Map<string, string | null>} */
  const previous = new Map([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const v = /** @type {string} */ (queue.shift());
    if (v === to) break;
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  if (!previous.has(to)) return null;
  const steps = [];
  for (let v = to; v !== null; v = /** @type {string | null} */ (previous.get(v))) steps.unshift(v);
  return steps;
}

/** @type {Map<string, {graph: ReturnType<typeof folderGraph>, inCircle: Map<string, number>}>} */
const cache = new Map();

function analysed(root) {
  let entry = cache.get(root);
  if (!entry) {
    const graph = folderGraph(root);
    const inCircle = new Map();
    circles(graph).forEach((component, i) => component.forEach((folder) => inCircle.set(folder, i)));
    entry = { graph, inCircle };
    cache.set(root, entry);
  }
  return entry;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noFolderCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'The folders under a root import each other without circles (runtime imports).' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' } },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      cycle:
        "'{{spec}}' makes {{from}}/ import {{to}}/, and {{to}}/ already reaches {{from}}/ ({{back}}): the folders form a circle. Move the shared part to a folder both may import, or pass it in from services.ts.",
    },
  },
  create(context) {
    const root = path.resolve(context.cwd, context.options[0].root);
    const file = context.filename;
    const from = folderOf(root, file);
    if (!from || isTestFile(file)) return {};
    const { graph, inCircle } = analysed(root);

    /** @param {import('estree').Node} node @param {unknown} spec */
    function check(node, spec) {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = folderOf(root, path.resolve(path.dirname(file), spec));
      if (!to || to === from || !inCircle.has(from) || inCircle.get(from) !== inCircle.get(to)) return;
      const back = pathBetween(graph, to, from);
      context.report({
        node,
        messageId: 'cycle',
        data: { spec, from, to, back: back ? back.join(' → ') : `${to} → … → ${from}` },
      });
    }
    const typeOnlyImport = (node) =>
      node.importKind === 'type' ||
      (node.specifiers.length > 0 &&
        node.specifiers.every((s) => s.type === 'ImportSpecifier' && s.importKind === 'type'));
    const typeOnlyExport = (node) =>
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.exportKind === 'type'));

    return {
      ImportDeclaration: (node) => !typeOnlyImport(node) && check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      ExportAllDeclaration: (node) => node.exportKind !== 'type' && check(node, node.source.value),
      ExportNamedDeclaration: (node) =>
        node.source && !typeOnlyExport(node) && check(node, node.source.value),
    };
  },
};

export default { rules: { 'no-folder-cycle': noFolderCycle } };
