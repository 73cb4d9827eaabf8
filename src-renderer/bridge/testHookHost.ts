/**
 * For tests: runs a hook in real React (react-dom's client renderer, effects and all) in Node, with
 * no DOM. The host component renders nothing, so the container only needs what React reads of it
 * when it mounts and commits; the hook's latest value is kept in `value`.
 */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';

const g = globalThis as unknown as { window?: unknown; IS_REACT_ACT_ENVIRONMENT?: boolean };
g.IS_REACT_ACT_ENVIRONMENT = true;
// React reads the window's event (update priority) and its active element (commit) — both empty.
g.window ??= { HTMLIFrameElement: class {}, document: { activeElement: null } };

function emptyContainer(): Element {
  const listeners = { addEventListener: () => undefined, removeEventListener: () => undefined };
  return {
    ...listeners,
    nodeType: 1,
    tagName: 'DIV',
    namespaceURI: 'http://www.w3.org/1999/xhtml',
    ownerDocument: { ...listeners, nodeType: 9 },
  } as unknown as Element;
}

export type HookHost<P, R> = {
  /** What the hook returned at its latest render. */
  readonly value: R;
  /** Renders again with new props (effects run before this resolves). */
  render(props: P): Promise<void>;
  /** Lets pending promises settle and React apply what they set. */
  settle(): Promise<void>;
  /** Does something that sets state (calls a function the hook returned) as React expects. */
  act(fn: () => void): Promise<void>;
  unmount(): Promise<void>;
};

export async function hostHook<P, R>(hook: (props: P) => R, props: P): Promise<HookHost<P, R>> {
  let value: R | undefined;
  function Host(p: { props: P }) {
    value = hook(p.props);
    return null;
  }
  const root = createRoot(emptyContainer());
  const host: HookHost<P, R> = {
    get value() {
      return value as R;
    },
    render: (next) => act(async () => root.render(createElement(Host, { props: next }))),
    settle: () => act(async () => new Promise((resolve) => setTimeout(resolve, 0))),
    act: (fn) => act(async () => fn()),
    unmount: () => act(async () => root.unmount()),
  };
  await host.render(props);
  return host;
}
