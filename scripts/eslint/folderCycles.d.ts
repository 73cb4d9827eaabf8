import type { ESLint, Rule } from 'eslint';

export declare const noFolderCycle: Rule.RuleModule;
export declare function isTestFile(file: string): boolean;
export declare function runtimeImports(text: string, fileName?: string): string[];
export declare function folderOf(root: string, file: string): string | null;
export declare function folderGraph(root: string): Map<string, Map<string, { file: string; spec: string }>>;
export declare function circles(graph: Map<string, Map<string, unknown>>): string[][];
export declare function pathBetween(
  graph: Map<string, Map<string, unknown>>,
  from: string,
  to: string,
): string[] | null;
declare const plugin: ESLint.Plugin;
export default plugin;
