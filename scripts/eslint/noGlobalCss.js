// ESLint rule `blotter/no-global-css`: a plain stylesheet (`*.css`, not `*.module.css`) may be imported
// only from the one shared folder of global styles (src-renderer/styles/), or when it is one of the
// third-party sheets listed in the options. Every feature scopes its classes in a CSS module, so a
// class defined by two features can never restyle a third (the Areas coverage strip broke that way).
import path from 'node:path';

/** @param {string} spec */
const isCss = (spec) => /\.css(\?.*)?$/.test(spec);
/** @param {string} spec */
const isModule = (spec) => /\.module\.css(\?.*)?$/.test(spec);

/** @type {import('eslint').Rule.RuleModule} */
export const noGlobalCss = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Plain global stylesheets only from the shared styles folder; features use CSS modules.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          stylesDir: { type: 'string' },
          allowPackages: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      global:
        "'{{spec}}' is a plain stylesheet outside {{stylesDir}}/: rename it to *.module.css and use its classes (import styles from '…module.css'), or move truly global rules to {{stylesDir}}/.",
      package: "'{{spec}}' is a package stylesheet that is not on the list in eslint.config.js.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const stylesDir = path.resolve(context.cwd, options.stylesDir ?? 'src-renderer/styles');
    const allowPackages = new Set(options.allowPackages ?? []);
    const shown = path.relative(context.cwd, stylesDir);

    /** @param {import('estree').Node} node @param {unknown} source */
    function check(node, source) {
      if (typeof source !== 'string' || !isCss(source) || isModule(source)) return;
      const spec = source.replace(/\?.*$/, '');
      if (!spec.startsWith('.') && !spec.startsWith('/')) {
        if (!allowPackages.has(spec)) context.report({ node, messageId: 'package', data: { spec } });
        return;
      }
      const target = path.resolve(path.dirname(context.filename), spec);
      if (path.dirname(target) !== stylesDir)
        context.report({ node, messageId: 'global', data: { spec, stylesDir: shown } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
    };
  },
};

export default { rules: { 'no-global-css': noGlobalCss } };
